package io.landingledger.lambda.testing;

import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.http.SdkHttpResponse;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * The errors S3 and DynamoDB answer when they are overloaded, broken or refuse a transaction, built as the SDK
 * builds them from a response (status, error code, service), so that its retry strategy and the function's error
 * handling judge them as they would a real answer. Each message says "(injected)".
 */
public final class InjectedErrors {
    private InjectedErrors() {
    }

    public static S3Exception s3Error(int status, String code) {
        return (S3Exception) S3Exception.builder().statusCode(status).message(code + " (injected)")
                .awsErrorDetails(AwsErrorDetails.builder().errorCode(code).errorMessage(code + " (injected)").serviceName("S3")
                        .sdkHttpResponse(SdkHttpResponse.builder().statusCode(status).build()).build())
                .build();
    }

    public static DynamoDbException dynamoError(int status, String code) {
        return (DynamoDbException) DynamoDbException.builder().statusCode(status).message(code + " (injected)")
                .awsErrorDetails(AwsErrorDetails.builder().errorCode(code).errorMessage(code + " (injected)").serviceName("DynamoDb")
                        .sdkHttpResponse(SdkHttpResponse.builder().statusCode(status).build()).build())
                .build();
    }

    public static ProvisionedThroughputExceededException dynamoThroughputExceeded() {
        String code = "ProvisionedThroughputExceededException";
        return ProvisionedThroughputExceededException.builder().statusCode(400)
                .message(code + " (injected)")
                .awsErrorDetails(AwsErrorDetails.builder().errorCode(code).errorMessage(code + " (injected)").serviceName("DynamoDb")
                        .sdkHttpResponse(SdkHttpResponse.builder().statusCode(400).build()).build())
                .build();
    }

    public static TransactionCanceledException transactionCanceled(String reason) {
        String code = "TransactionCanceledException";
        return TransactionCanceledException.builder().statusCode(400)
                .message("Transaction cancelled, please refer cancellation reasons for specific reasons [" + reason + ", None] (injected)")
                .cancellationReasons(CancellationReason.builder().code(reason).message(reason + " (injected)").build(),
                        CancellationReason.builder().code("None").build())
                .awsErrorDetails(AwsErrorDetails.builder().errorCode(code).errorMessage("injected").serviceName("DynamoDb")
                        .sdkHttpResponse(SdkHttpResponse.builder().statusCode(400).build()).build())
                .build();
    }
}
