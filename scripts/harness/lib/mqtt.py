"""A minimal MQTT 3.1.1 client over a TCP socket, for checking what a broker holds and
relays: CONNECT with a login and clean or kept session, SUBSCRIBE at QoS 1, PUBLISH at
QoS 0 (retained or not), and every PUBLISH received (acknowledged when QoS 1) kept with its retain flag.
"""
import socket
import struct
import threading
import time


def _string(text):
    data = text.encode()
    return struct.pack("!H", len(data)) + data


def _packet(kind, body):
    length = len(body)
    encoded = bytearray()
    while True:
        byte = length % 128
        length //= 128
        encoded.append(byte | (0x80 if length else 0))
        if not length:
            break
    return bytes([kind]) + bytes(encoded) + body


class Client:
    """One connection; `messages` is every (topic, payload, retained) received, in order."""

    def __init__(self, port, client_id, username=None, password=None, clean=True):
        self.port, self.client_id, self.username, self.password, self.clean = port, client_id, username, password, clean
        self.messages = []
        self.lock = threading.Lock()
        self.sock = None
        self.reader = None
        self.next_id = 1

    def connect(self, timeout=10):
        """Connects; returns the CONNACK's return code (0: accepted)."""
        deadline = time.time() + timeout
        while True:
            try:
                self.sock = socket.create_connection(("127.0.0.1", self.port), timeout=2)
                break
            except OSError:
                if time.time() > deadline:
                    raise
                time.sleep(0.1)
        flags = (0x02 if self.clean else 0) | (0x80 if self.username else 0) | (0x40 if self.password else 0)
        body = _string("MQTT") + bytes([4, flags]) + struct.pack("!H", 60) + _string(self.client_id)
        if self.username:
            body += _string(self.username)
        if self.password:
            body += _string(self.password)
        self.sock.sendall(_packet(0x10, body))
        kind, payload = self._read_packet()
        if kind >> 4 != 2 or payload[1] != 0:
            return payload[1] if len(payload) > 1 else -1
        self.sock.settimeout(None)
        self.reader = threading.Thread(target=self._read_loop, daemon=True)
        self.reader.start()
        return 0

    def subscribe(self, topic):
        packet_id = self._id()
        self.sock.sendall(_packet(0x82, struct.pack("!H", packet_id) + _string(topic) + bytes([1])))

    def publish(self, topic, payload, retain=False):
        """QoS 0; `retain` asks the broker to keep it for every later subscriber (an
        empty retained payload clears what it kept). `payload` is text or bytes."""
        data = payload if isinstance(payload, bytes) else payload.encode()
        self.sock.sendall(_packet(0x31 if retain else 0x30, _string(topic) + data))

    def close(self):
        if self.sock:
            try:
                self.sock.sendall(bytes([0xE0, 0]))
                self.sock.close()
            except OSError:
                pass
            self.sock = None
        if self.reader:
            self.reader.join(timeout=2)

    def wait_for(self, predicate, timeout):
        """The first message (topic, payload, retained) `predicate` accepts, waiting up to
        `timeout` seconds; None when none came."""
        deadline = time.time() + timeout
        seen = 0
        while True:
            with self.lock:
                fresh = self.messages[seen:]
                seen = len(self.messages)
            for message in fresh:
                if predicate(*message):
                    return message
            if time.time() > deadline:
                return None
            time.sleep(0.05)

    def received(self, predicate):
        with self.lock:
            return [m for m in self.messages if predicate(*m)]

    def _id(self):
        self.next_id += 1
        return self.next_id

    def _read_exactly(self, count):
        data = b""
        while len(data) < count:
            chunk = self.sock.recv(count - len(data))
            if not chunk:
                raise ConnectionError("the broker closed the connection")
            data += chunk
        return data

    def _read_packet(self):
        kind = self._read_exactly(1)[0]
        length, shift = 0, 0
        while True:
            byte = self._read_exactly(1)[0]
            length += (byte & 0x7F) << shift
            shift += 7
            if not byte & 0x80:
                break
        return kind, self._read_exactly(length) if length else b""

    def _read_loop(self):
        try:
            while True:
                kind, body = self._read_packet()
                if kind >> 4 != 3:
                    continue
                qos = (kind >> 1) & 3
                (topic_length,) = struct.unpack("!H", body[:2])
                topic = body[2:2 + topic_length].decode()
                rest = body[2 + topic_length:]
                if qos:
                    packet_id, rest = rest[:2], rest[2:]
                    self.sock.sendall(bytes([0x40, 2]) + packet_id)
                with self.lock:
                    self.messages.append((topic, rest.decode(errors="replace"), bool(kind & 1)))
        except (OSError, ConnectionError, AttributeError):
            return
