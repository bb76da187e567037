# tests/record/crashy.py - a tiny HTTP server that answers 200 "ok" to
# every GET and exits with status 3 after LIFE seconds, to test that erg
# record fails a measurement whose server dies while it is measured.
# Usage: python3 crashy.py PORT LIFE
import http.server
import os
import sys
import threading


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        body = b"ok\n"
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler)
threading.Timer(float(sys.argv[2]), lambda: os._exit(3)).start()
server.serve_forever()
