#!/usr/bin/env python3
"""What moto_server enforces with IAM authentication on: prints one line per probe (expected on AWS, seen on moto).

Usage: scripts/moto-iam-probe.py [--port 5599]

Starts `moto_server -H 127.0.0.1 -p PORT` with INITIAL_NO_AUTH_ACTION_COUNT=3 (moto has no root credentials: the
first three requests, unauthenticated, create an administrator user and its access key; every later request is
signed and authorized), probes DynamoDB, SQS and STS as IAM users and assumed roles, and stops the server.
Exit 0 always: the table is the result (docs/iam-measured.md).
"""
import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import time

import boto3
from botocore.config import Config
from botocore.exceptions import ClientError

REGION = "us-east-1"
ACCOUNT = "123456789012"


def wait_for(port):
    for _ in range(100):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.1)
    raise SystemExit("moto_server did not start")


def client(service, endpoint, key, secret, token=None):
    return boto3.client(service, endpoint_url=endpoint, region_name=REGION, aws_access_key_id=key,
                        aws_secret_access_key=secret, aws_session_token=token,
                        config=Config(retries={"max_attempts": 1}))


def outcome(call):
    try:
        call()
        return "allowed"
    except ClientError as e:
        code = e.response["Error"]["Code"]
        status = e.response.get("ResponseMetadata", {}).get("HTTPStatusCode")
        if code in ("AccessDenied", "AccessDeniedException") or (status == 403 and code in ("403", "")):
            return "denied"
        return code
    except Exception as e:  # moto answers some probes with an HTML 500
        return "error " + ("500" if "500 Internal Server Error" in str(e) else type(e).__name__)


def policy(*statements):
    return json.dumps({"Version": "2012-10-17", "Statement": list(statements)})


def allow(action, resource="*", **extra):
    return dict({"Effect": "Allow", "Action": action, "Resource": resource}, **extra)


def deny(action, resource="*", **extra):
    return dict({"Effect": "Deny", "Action": action, "Resource": resource}, **extra)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=5599)
    port = parser.parse_args().port
    endpoint = f"http://127.0.0.1:{port}"
    env = dict(os.environ, INITIAL_NO_AUTH_ACTION_COUNT="3", MOTO_ACCOUNT_ID=ACCOUNT)
    server = subprocess.Popen(["moto_server", "-H", "127.0.0.1", "-p", str(port)], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        wait_for(port)
        rows = probe(endpoint)
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=10)
    width = max(len(r[0]) for r in rows)
    print(f"{'probe'.ljust(width)}  {'AWS':8}  moto")
    for name, expected, seen in rows:
        mark = "" if expected == seen else "   <- differs"
        print(f"{name.ljust(width)}  {expected:8}  {seen}{mark}")
    return 0


def probe(endpoint):
    # the three unauthenticated requests
    bootstrap = client("iam", endpoint, "bootstrap", "bootstrap")
    bootstrap.create_user(UserName="admin")
    bootstrap.put_user_policy(UserName="admin", PolicyName="all", PolicyDocument=policy(allow("*")))
    key = bootstrap.create_access_key(UserName="admin")["AccessKey"]
    admin = lambda service: client(service, endpoint, key["AccessKeyId"], key["SecretAccessKey"])  # noqa: E731
    rows = []
    rows.append(("unsigned-looking key (unknown access key id)",
                 "denied", outcome(lambda: client("dynamodb", endpoint, "AKIAUNKNOWN000000000", "x").list_tables())))
    rows.append(("known key, wrong secret (signature refused)", "denied",
                 outcome(lambda: client("dynamodb", endpoint, key["AccessKeyId"], "wrong").list_tables())))

    ddb = admin("dynamodb")
    for table in ("A", "B"):
        ddb.create_table(TableName=table, KeySchema=[{"AttributeName": "k", "KeyType": "HASH"}],
                         AttributeDefinitions=[{"AttributeName": "k", "AttributeType": "S"}], BillingMode="PAY_PER_REQUEST")
    sqs = admin("sqs")
    queue_a = sqs.create_queue(QueueName="qa")["QueueUrl"]
    queue_b = sqs.create_queue(QueueName="qb")["QueueUrl"]
    iam = admin("iam")
    sts = admin("sts")
    table_a = f"arn:aws:dynamodb:{REGION}:{ACCOUNT}:table/A"
    table_b = f"arn:aws:dynamodb:{REGION}:{ACCOUNT}:table/B"
    queue_a_arn = f"arn:aws:sqs:{REGION}:{ACCOUNT}:qa"
    queue_b_arn = f"arn:aws:sqs:{REGION}:{ACCOUNT}:qb"
    trust_admin = policy({"Effect": "Allow", "Principal": {"AWS": f"arn:aws:iam::{ACCOUNT}:user/admin"},
                          "Action": "sts:AssumeRole"})
    counter = [0]

    def role(*statements, trust=trust_admin):
        counter[0] += 1
        name = f"probe{counter[0]}"
        iam.create_role(RoleName=name, AssumeRolePolicyDocument=trust)
        iam.put_role_policy(RoleName=name, PolicyName="p", PolicyDocument=policy(*statements))
        creds = sts.assume_role(RoleArn=f"arn:aws:iam::{ACCOUNT}:role/{name}", RoleSessionName="fn")["Credentials"]
        return lambda service: client(service, endpoint, creds["AccessKeyId"], creds["SecretAccessKey"],
                                      creds["SessionToken"])

    def user(*statements):
        counter[0] += 1
        name = f"user{counter[0]}"
        iam.create_user(UserName=name)
        iam.put_user_policy(UserName=name, PolicyName="p", PolicyDocument=policy(*statements))
        k = iam.create_access_key(UserName=name)["AccessKey"]
        return lambda service: client(service, endpoint, k["AccessKeyId"], k["SecretAccessKey"])

    get = lambda c, t: c.get_item(TableName=t, Key={"k": {"S": "1"}})  # noqa: E731
    put = lambda c, t: c.put_item(TableName=t, Item={"k": {"S": "1"}})  # noqa: E731

    r = role(allow("dynamodb:GetItem"))("dynamodb")
    rows.append(("ddb role Allow GetItem on *: GetItem A", "allowed", outcome(lambda: get(r, "A"))))
    rows.append(("ddb role Allow GetItem on *: PutItem A (action checked)", "denied", outcome(lambda: put(r, "A"))))
    u = user(allow("dynamodb:GetItem"))("dynamodb")
    rows.append(("ddb user Allow GetItem on *: PutItem A", "denied", outcome(lambda: put(u, "A"))))

    r = role(allow("dynamodb:GetItem", table_a))("dynamodb")
    rows.append(("ddb role Allow GetItem on table/A: GetItem A", "allowed", outcome(lambda: get(r, "A"))))
    rows.append(("ddb role Allow GetItem on table/A: GetItem B (resource)", "denied", outcome(lambda: get(r, "B"))))

    r = role(allow("dynamodb:*"), deny("dynamodb:PutItem"))("dynamodb")
    rows.append(("ddb role Allow * + Deny PutItem on *: PutItem A", "denied", outcome(lambda: put(r, "A"))))
    r = role(allow("dynamodb:*"), deny("dynamodb:PutItem", table_b))("dynamodb")
    rows.append(("ddb role Allow * + Deny PutItem on table/B: PutItem B", "denied", outcome(lambda: put(r, "B"))))
    rows.append(("ddb role Allow * + Deny PutItem on table/B: PutItem A", "allowed", outcome(lambda: put(r, "A"))))

    region_condition = {"StringEquals": {"aws:RequestedRegion": REGION}}
    r = role(allow("dynamodb:GetItem", Condition=region_condition))("dynamodb")
    rows.append(("ddb role Allow GetItem if aws:RequestedRegion=us-east-1 (true)", "allowed", outcome(lambda: get(r, "A"))))
    r = role(allow("dynamodb:*"), allow("dynamodb:GetItem", Condition={"StringEquals": {"aws:RequestedRegion": "eu-west-1"}}))("dynamodb")
    rows.append(("ddb role Allow *, + Allow GetItem if region=eu-west-1 (false): GetItem", "allowed", outcome(lambda: get(r, "A"))))
    r = role(allow("dynamodb:*"), deny("dynamodb:GetItem", Condition={"StringEquals": {"aws:RequestedRegion": "eu-west-1"}}))("dynamodb")
    rows.append(("ddb role Allow *, + Deny GetItem if region=eu-west-1 (false): GetItem", "allowed", outcome(lambda: get(r, "A"))))
    r = role(allow("dynamodb:*"), deny("dynamodb:GetItem", Condition=region_condition))("dynamodb")
    rows.append(("ddb role Allow *, + Deny GetItem if region=us-east-1 (true): GetItem", "denied", outcome(lambda: get(r, "A"))))

    r = role(allow("DynamoDB:getitem"))("dynamodb")
    rows.append(("ddb role Allow 'DynamoDB:getitem' (action case): GetItem", "allowed", outcome(lambda: get(r, "A"))))
    r = role(allow("dynamodb:Get?tem"))("dynamodb")
    rows.append(("ddb role Allow 'dynamodb:Get?tem' (? wildcard): GetItem", "allowed", outcome(lambda: get(r, "A"))))
    r = role({"Effect": "Allow", "NotAction": "dynamodb:PutItem", "Resource": "*"})("dynamodb")
    rows.append(("ddb role Allow NotAction PutItem: GetItem", "allowed", outcome(lambda: get(r, "A"))))
    rows.append(("ddb role Allow NotAction PutItem: PutItem", "denied", outcome(lambda: put(r, "A"))))

    send = lambda c, q: c.send_message(QueueUrl=q, MessageBody="x")  # noqa: E731
    r = role(allow("sqs:SendMessage", queue_a_arn))("sqs")
    rows.append(("sqs role Allow SendMessage on qa: SendMessage qa", "allowed", outcome(lambda: send(r, queue_a))))
    rows.append(("sqs role Allow SendMessage on qa: SendMessage qb (resource)", "denied", outcome(lambda: send(r, queue_b))))
    rows.append(("sqs role Allow SendMessage on qa: ReceiveMessage qa (action)", "denied",
                 outcome(lambda: r.receive_message(QueueUrl=queue_a))))
    r = role(allow("sqs:*"), deny("sqs:SendMessage", queue_b_arn))("sqs")
    rows.append(("sqs role Allow * + Deny SendMessage on qb: SendMessage qb", "denied", outcome(lambda: send(r, queue_b))))
    rows.append(("sqs role Allow * + Deny SendMessage on qb: SendMessage qa", "allowed", outcome(lambda: send(r, queue_a))))

    sqs.set_queue_attributes(QueueUrl=queue_b, Attributes={"Policy": policy(
        {"Effect": "Deny", "Principal": "*", "Action": "sqs:SendMessage", "Resource": queue_b_arn})})
    r = role(allow("sqs:*"))("sqs")
    rows.append(("sqs queue policy Deny SendMessage to *, role Allow sqs:*: SendMessage", "denied", outcome(lambda: send(r, queue_b))))
    sqs.set_queue_attributes(QueueUrl=queue_a, Attributes={"Policy": policy(
        {"Effect": "Allow", "Principal": {"AWS": f"arn:aws:iam::{ACCOUNT}:user/user99"}, "Action": "sqs:SendMessage",
         "Resource": queue_a_arn})})
    iam.create_user(UserName="user99")
    k = iam.create_access_key(UserName="user99")["AccessKey"]
    nobody = client("sqs", endpoint, k["AccessKeyId"], k["SecretAccessKey"])
    rows.append(("sqs queue policy Allow user99 (no identity policy): SendMessage", "allowed", outcome(lambda: send(nobody, queue_a))))

    iam.create_role(RoleName="trusts-lambda", AssumeRolePolicyDocument=policy(
        {"Effect": "Allow", "Principal": {"Service": "lambda.amazonaws.com"}, "Action": "sts:AssumeRole"}))
    rows.append(("sts AssumeRole of a role trusting only lambda.amazonaws.com", "denied", outcome(
        lambda: sts.assume_role(RoleArn=f"arn:aws:iam::{ACCOUNT}:role/trusts-lambda", RoleSessionName="probe"))))
    return rows


if __name__ == "__main__":
    sys.exit(main())
