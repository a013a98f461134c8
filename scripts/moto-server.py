#!/usr/bin/env python3
"""moto_server for DynamoDB, with each request handled atomically.

Stock `moto_server` serves requests on many threads with no lock around moto's backends, so two concurrent
TransactWriteItems calls can both pass a condition that only one may pass (measured: 8 concurrent ledger
transactions with attribute_not_exists on one item, two succeeded). DynamoDB itself evaluates a transaction's
conditions and applies its writes atomically. This launcher runs the same moto application behind one lock,
so every request is evaluated and applied as a unit, which is the guarantee the ledger's conditions rely on.

Usage: moto-server.py -H 127.0.0.1 -p PORT   (the same flags as moto_server; needs `pip install "moto[server]"`)
"""
import argparse
import sys
import threading

try:
    from moto.moto_server.werkzeug_app import DomainDispatcherApplication, create_backend_app
    from werkzeug.serving import run_simple
except ImportError as missing:
    # MotoServer recognises this exit status and says how to install moto
    print(f"moto's server is not installed for {sys.executable}: {missing}", file=sys.stderr)
    sys.exit(3)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-H", "--host", default="127.0.0.1")
    parser.add_argument("-p", "--port", type=int, default=5000)
    args = parser.parse_args()

    app = DomainDispatcherApplication(create_backend_app)
    lock = threading.Lock()

    def serialized(environ, start_response):
        with lock:
            # materialise the body inside the lock: the backend's work happens while the response is produced
            return list(app(environ, start_response))

    run_simple(args.host, args.port, serialized, threaded=True)


if __name__ == "__main__":
    main()
