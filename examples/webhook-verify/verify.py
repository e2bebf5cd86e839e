"""Verifies a webhook delivery: Python 3.8+, standard library only.

Usage: python3 verify.py <raw-body-file> <X-Service-Signature-V2> <X-Service-Signature> <secret> [<secret>...]
"""
import hashlib
import hmac
import json
import os
import re
import sys
import time

TOLERANCE_SECONDS = 300


def verify_v2(raw_body: bytes, header, secret: str, now_seconds=None) -> bool:
    """X-Service-Signature-V2: t=<unix seconds>,v1=<hex>[,v1=<hex>]. True when a v1 matches and t is fresh."""
    if not isinstance(header, str):
        return False
    parts = [part.strip().split("=", 1) for part in header.split(",")]
    stamps = [p[1] for p in parts if len(p) == 2 and p[0] == "t"]
    signatures = [p[1] for p in parts if len(p) == 2 and p[0] == "v1"]
    if len(stamps) != 1 or not re.fullmatch(r"\d+", stamps[0]) or not signatures:
        return False
    expected = hmac.new(secret.encode(), stamps[0].encode() + b"." + raw_body, hashlib.sha256).hexdigest()
    if not any(hmac.compare_digest(signature.encode(), expected.encode()) for signature in signatures):
        return False
    now = int(time.time()) if now_seconds is None else now_seconds
    return abs(now - int(stamps[0])) <= TOLERANCE_SECONDS


def verify_body_only(raw_body: bytes, header, secret: str) -> bool:
    """X-Service-Signature: sha256=<hex HMAC-SHA256 of the raw body>; carries no time, so a replay passes it."""
    if not isinstance(header, str):
        return False
    expected = "sha256=" + hmac.new(secret.encode(), raw_body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(header.strip().encode(), expected.encode())


def verify_webhook(raw_body: bytes, headers: dict, secrets: list, now_seconds=None) -> bool:
    """Accept when any current secret verifies: during a rotation, configure both the old and the new one."""
    return any(verify_v2(raw_body, headers.get("x-service-signature-v2"), s, now_seconds) for s in secrets)


if __name__ == "__main__":
    body_file, v2, body_only, *secrets = sys.argv[1:]
    with open(body_file, "rb") as f:
        raw_body = f.read()  # the exact bytes received: never a re-serialised JSON
    now = int(os.environ["NOW_SECONDS"]) if os.environ.get("NOW_SECONDS") else None
    v2_ok = verify_webhook(raw_body, {"x-service-signature-v2": v2}, secrets, now)
    body_ok = any(verify_body_only(raw_body, body_only, s) for s in secrets)
    print(json.dumps({"v2": v2_ok, "bodyOnly": body_ok}).replace(" ", ""))
    sys.exit(0 if v2_ok else 1)
