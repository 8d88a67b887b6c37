#!/usr/bin/env python3
"""A real SMTP server for the mail tests (Debian's python3-aiosmtpd), started by the test.

Usage: smtp_server.py MODE [CERT KEY] [--auth USER:PASSWORD]; MODE is plain, starttls (STARTTLS offered and
required before MAIL) or smtps (TLS from the first byte). Listens on 127.0.0.1 and a free port, prints "port N"
first, then, for every message accepted, "received {JSON}": the envelope's sender and recipients, whether the
session was encrypted, whether it authenticated, and the message's text.
"""
import asyncio
import json
import ssl
import sys

from aiosmtpd.smtp import SMTP, AuthResult


class Handler:
    async def handle_DATA(self, server, session, envelope):
        print("received " + json.dumps({
            "from": envelope.mail_from,
            "to": envelope.rcpt_tos,
            "tls": session.ssl is not None or server.transport.get_extra_info("ssl_object") is not None,
            "authenticated": bool(session.authenticated),
            "data": envelope.original_content.decode("utf-8", "replace"),
        }), flush=True)
        return "250 OK"


def main():
    args = sys.argv[1:]
    credentials = None
    if "--auth" in args:
        at = args.index("--auth")
        credentials = args[at + 1].split(":", 1)
        del args[at:at + 2]
    mode = args[0]
    context = None
    if mode != "plain":
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(args[1], args[2])

    def authenticate(server, session, envelope, mechanism, data):
        ok = credentials is not None and data.login.decode() == credentials[0] and data.password.decode() == credentials[1]
        return AuthResult(success=ok)

    def make():
        options = dict(hostname="localhost", authenticator=authenticate if credentials else None,
                       auth_require_tls=mode != "plain", auth_required=credentials is not None)
        if mode == "starttls":
            options.update(tls_context=context, require_starttls=True)
        return SMTP(Handler(), **options)

    loop = asyncio.new_event_loop()
    server = loop.run_until_complete(loop.create_server(make, "127.0.0.1", 0, ssl=context if mode == "smtps" else None))
    print("port %d" % server.sockets[0].getsockname()[1], flush=True)
    loop.run_forever()


main()
