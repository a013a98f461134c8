#!/usr/bin/env python3
"""Transforms a SAM template as `sam deploy` does (samtranslator, offline) and writes the CloudFormation JSON.

Usage: scripts/sam-transform.py infra/template.yaml OUT.json [--region us-east-1]

cfn-lint's own SAM transform is used: the SAM CLI's managed-policy map (no AWS call) and local CodeUri values replaced
by a placeholder S3 URI, as `sam package` would replace them. CI lints the
output (cfn-lint on what CloudFormation would receive) and the least-privilege check reads the roles from it.
"""
import argparse
import json
import sys

from cfnlint.decode import decode
from cfnlint.template.transforms._sam import Transform


def main():
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("template")
    args.add_argument("out")
    args.add_argument("--region", default="us-east-1")
    options = args.parse_args()

    template, matches = decode(options.template)
    if matches:
        for match in matches:
            print(match, file=sys.stderr)
        return 1
    transform = Transform(options.template, template, options.region)
    errors = transform.transform_template()
    if errors:
        for error in errors:
            print("SAM transform: " + error.message, file=sys.stderr)
        return 1
    with open(options.out, "w", encoding="utf-8") as out:
        json.dump(transform.template(), out, indent=1, sort_keys=True, default=str)
        out.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
