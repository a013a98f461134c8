#!/bin/bash
# Runs inside the LocalStack container once it is ready (docker-compose.yml mounts this directory at
# /etc/localstack/init/ready.d; LocalStackIT copies this file there). Creates what `./landing local --endpoint
# http://localhost:4566` and localstack/env.json expect, shaped as infra/template.yaml declares it:
#
#   landing-inbox-local          inbox bucket, versioning on (the ledger records input version ids)
#   landing-lake-local           lake bucket (published/, _staging/, _quarantine/, _reports/)
#   LandingLedger-Ledger         PK dataset (S), SK unit (S), on demand
#   LandingLedger-LedgerHistory  PK dataset_unit (S), SK at_run (S), on demand
#   LandingLedger-Consumers      PK dataset (S), SK unit_consumer (S), on demand (consumer receipts, ConsumersTable)
#
# The names are cli/.../local/LocalPipeline.java's constants; the key schemas are io.landingledger.lambda.LedgerTables
# (LocalStackIT compares the tables this script makes with it). Everything is idempotent: a container restarted on a
# persisted volume keeps its data, and `landing local` itself also creates whatever is missing.
#
# Not emulated here: bucket policies, encryption, lifecycle rules, point-in-time recovery, the Ledger stream and
# deletion protection. They guard the deployed stack; nothing the code does locally depends on them.
set -euo pipefail

# awslocal (in the image) signs with these. LocalStack maps an access key that is not an account id to its default
# account 000000000000, the same account the SDK clients' test/test land in.
export AWS_ACCESS_KEY_ID=test AWS_SECRET_ACCESS_KEY=test AWS_DEFAULT_REGION=us-east-1

INBOX_BUCKET=landing-inbox-local
LAKE_BUCKET=landing-lake-local
LEDGER_TABLE=LandingLedger-Ledger
HISTORY_TABLE=LandingLedger-LedgerHistory
CONSUMERS_TABLE=LandingLedger-Consumers

bucket() {
  if awslocal s3api head-bucket --bucket "$1" >/dev/null 2>&1; then
    echo "landing-ledger init: bucket $1 exists"
  else
    awslocal s3api create-bucket --bucket "$1" >/dev/null
    echo "landing-ledger init: created bucket $1"
  fi
}

# table NAME PARTITION_KEY SORT_KEY: both keys strings, PAY_PER_REQUEST, as LedgerTables.table builds it.
table() {
  if awslocal dynamodb describe-table --table-name "$1" >/dev/null 2>&1; then
    echo "landing-ledger init: table $1 exists"
  else
    awslocal dynamodb create-table --table-name "$1" --billing-mode PAY_PER_REQUEST \
      --attribute-definitions "AttributeName=$2,AttributeType=S" "AttributeName=$3,AttributeType=S" \
      --key-schema "AttributeName=$2,KeyType=HASH" "AttributeName=$3,KeyType=RANGE" >/dev/null
    awslocal dynamodb wait table-exists --table-name "$1"
    echo "landing-ledger init: created table $1 ($2 HASH, $3 RANGE)"
  fi
}

bucket "$INBOX_BUCKET"
awslocal s3api put-bucket-versioning --bucket "$INBOX_BUCKET" --versioning-configuration Status=Enabled
bucket "$LAKE_BUCKET"
table "$LEDGER_TABLE" dataset unit
table "$HISTORY_TABLE" dataset_unit at_run
table "$CONSUMERS_TABLE" dataset unit_consumer
echo "landing-ledger init: ready (s3://$INBOX_BUCKET versioned, s3://$LAKE_BUCKET, $LEDGER_TABLE, $HISTORY_TABLE)"
