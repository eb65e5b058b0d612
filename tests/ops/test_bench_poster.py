"""The benchmark's referee team (``DealPoster``): its pace, and failures it must not hide."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import SimpleNamespace

import pytest

from bench.serve import DealPoster


class Saved(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # one kept connection, as the poster uses

    def do_POST(self):
        self.rfile.read(int(self.headers["Content-Length"]))
        self.server.bodies.append(self.headers["Cookie"])
        if len(self.server.bodies) > self.server.answer_until:
            self.close_connection = True  # hang up without an answer
            return
        self.send_response(302)
        self.send_header("Location", "/next/")
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture
def http_server():
    def start(answer_until=10**6):
        server = ThreadingHTTPServer(("127.0.0.1", 0), Saved)
        server.bodies, server.answer_until = [], answer_until
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return server

    servers = []
    yield start
    for server in servers:
        server.shutdown()
        server.server_close()


def poster(server, count, rate):
    items = [(f"/table/t{i}/", f"number={i}") for i in range(count)]
    return DealPoster(SimpleNamespace(port=server.server_address[1]), items, rate, "x" * 32)


def test_posts_every_deal_at_the_pace_asked(http_server):
    server = http_server()
    p = poster(server, 6, rate=50)
    p.start()
    p.join(timeout=10)
    report = p.report()
    assert report["deals_posted"] == 6 and report["non_302"] == 0
    assert report["ran_out_of_deals"] and not report["failed"]
    assert p.seconds >= 5 / 50  # six deals at 50/s: five intervals at least
    assert server.bodies == ["csrftoken=" + "x" * 32] * 6


def test_stops_when_asked(http_server):
    p = poster(http_server(), 1000, rate=20)
    p.start()
    p.stop.set()
    p.join(timeout=10)
    assert not p.is_alive() and p.report()["deals_posted"] < 1000


def test_a_post_left_unanswered_is_an_error_not_a_fast_rate(http_server):
    p = poster(http_server(answer_until=2), 10, rate=100)
    p.start()
    p.join(timeout=10)
    report = p.report()
    assert report["deals_posted"] == 2
    assert report["failed"] and not report["ran_out_of_deals"]
    assert report["deals_per_s"] < 100
