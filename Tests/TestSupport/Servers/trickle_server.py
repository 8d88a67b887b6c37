#!/usr/bin/env python3
"""An HTTP server that answers one byte every half second: every wait for the next byte is short, the whole answer
never comes (a server that a timeout per read does not give up on). Started by the test (TricklingServer.swift).

Usage: trickle_server.py. Listens on 127.0.0.1 and a free port and prints "port N"; each connection gets an answer of
200 with a long JSON body, one byte at a time, until the client closes it or the server is killed.
"""
import socket
import threading
import time

ANSWER = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n" + b" " * 100000


def trickle(connection):
    with connection:
        try:
            for byte in ANSWER:
                connection.sendall(bytes([byte]))
                time.sleep(0.5)
        except OSError:
            pass


def main():
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    print("port %d" % listener.getsockname()[1], flush=True)
    while True:
        connection, _ = listener.accept()
        connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        threading.Thread(target=trickle, args=(connection,), daemon=True).start()


if __name__ == "__main__":
    main()
