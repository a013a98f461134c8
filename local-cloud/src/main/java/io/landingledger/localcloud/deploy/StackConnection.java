package io.landingledger.localcloud.deploy;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.regions.Region;

import java.net.URI;

/** Where the deployed stack's APIs answer (one gateway endpoint for all) and the keys a caller signs with. */
public record StackConnection(Region region, URI endpoint, AwsBasicCredentials credentials) {
}
