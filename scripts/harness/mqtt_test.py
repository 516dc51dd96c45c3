#!/usr/bin/env python3
"""patternlock mqtt against a real Mosquitto broker on a loopback port, the way
patternlock-mqtt.service runs it: the event socket made by root and handed over by
systemd-socket-activate, the process itself as user nobody with its password file.
The lock's events come from real `check`s and `credential`s on a real state directory;
the running lock's own link (state lines, LOCK, UNLOCK and brightness) is played by this harness,
as `run` needs a display (EventLinkTests drive the lock's side on a real socket).

Checks: refusals (as root, a password file others can read); the discovery messages
against Home Assistant's MQTT schemas; availability, state and events after wrong,
right, duress and a lockout; LOCK and UNLOCK passed to the lock's link, and a command
with no lock there; a brightness passed as `brightness N`, malformed and retained ones
not, and the level the lock reports published on the number's state topic; the broker stopped and started again with events in between, none
lost; a retained UNLOCK replayed at each subscription never reaching the lock (after
the broker's and the reporter's restart), a live one still does, a client id nobody can
guess; a bad password (one line, retries, the lock keeps judging); the last will.

Usage: mqtt_test.py BINARY   (as root). Ends with "mqtt: N passed, N failed".
"""
import json
import os
import pwd
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lib import mqtt  # noqa: E402
from lib.checks import Checks, Failure, expect  # noqa: E402
from lib.listener import wait_for_listener  # noqa: E402

BINARY = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else ".build/debug/patternlock"
# The owner's and a duress credential's patterns: README.md's examples, which an
# enrolment accepts (it refuses the head of an attacker's order).
RIGHT, DURESS = "2-5-9-4-3", "4-3-5-9-2"
WRONGS = ["1-4-7-8", "3-2-1-4", "9-8-7-4", "2-5-8-9", "4-5-6-3", "7-4-1-2", "1-5-9-6", "3-5-7-8"]
USER, PASSWORD = "door", "s3cret-door"
BASE = "patternlock/front-door"
checks = Checks()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Site:
    """A state directory with the owner's pattern and a duress credential, a
    configuration tree naming it (a short throttle), a broker with a password file, and
    patternlock mqtt on its event socket."""

    def __init__(self):
        self.root = tempfile.mkdtemp(prefix="mqtt-test-")
        os.chmod(self.root, 0o755)
        self.state = os.path.join(self.root, "state")
        self.socket = os.path.join(self.root, "events.sock")
        os.makedirs(os.path.join(self.root, "etc"))
        with open(os.path.join(self.root, "etc", "patternlock.conf"), "w") as f:
            f.write(f"[vault]\nstate-dir = {self.state}\nargon-passes = 1\nargon-memory-mib = 8\nthrottle = 0 0 0 0 20s\n"
                    "[mqtt]\nhost = 127.0.0.1\ndevice-name = Front door\n")
        os.chmod(os.path.join(self.root, "etc", "patternlock.conf"), 0o644)
        self.env = dict(os.environ, PATTERNLOCK_CONFIG_ROOT=self.root, PATTERNLOCK_EVENT_SOCKET=self.socket)
        self.port = free_port()
        self.broker = None
        self.mqtt = None
        self.mqtt_log = os.path.join(self.root, "mqtt.log")
        self.password_file = self.write_password(PASSWORD, "password")
        subprocess.run(["mosquitto_passwd", "-b", "-c", os.path.join(self.root, "broker.passwd"), USER, PASSWORD], check=True,
                       capture_output=True)
        os.chmod(os.path.join(self.root, "broker.passwd"), 0o644)
        self.tls_port = free_port()
        self.make_certificates()
        with open(os.path.join(self.root, "broker.conf"), "w") as f:
            f.write(f"per_listener_settings true\npersistence true\npersistence_location {self.root}/broker-data/\n"
                    f"listener {self.port} 127.0.0.1\nallow_anonymous false\npassword_file {self.root}/broker.passwd\n"
                    f"listener {self.tls_port} 127.0.0.1\nallow_anonymous false\ncafile {self.root}/ca.pem\n"
                    f"certfile {self.root}/broker.pem\nkeyfile {self.root}/broker.key\nrequire_certificate true\n"
                    "use_identity_as_username true\n")
        # Started as root, mosquitto runs as its own user: its store must be that user's.
        os.makedirs(os.path.join(self.root, "broker-data"))
        broker_user = pwd.getpwnam("mosquitto")
        os.chown(os.path.join(self.root, "broker-data"), broker_user.pw_uid, broker_user.pw_gid)
        self.judge(["set-pattern"], RIGHT)
        self.judge(["credential", "add", "panic", "--role", "duress"], DURESS)

    def make_certificates(self):
        """A certificate authority, the broker's certificate for 127.0.0.1, and a client
        certificate for the panel (its key the mqtt user's, 0600)."""
        def openssl(*args):
            subprocess.run(["openssl", *args], check=True, capture_output=True, cwd=self.root)

        openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days", "2",
                "-subj", "/CN=patternlock test CA")
        for name, subject, extension in (("broker", "/CN=localhost", "subjectAltName=IP:127.0.0.1,DNS:localhost"),
                                         ("panel", "/CN=door", "extendedKeyUsage=clientAuth")):
            openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", f"{name}.key", "-out", f"{name}.csr", "-subj", subject)
            with open(os.path.join(self.root, f"{name}.ext"), "w") as f:
                f.write(extension + "\n")
            openssl("x509", "-req", "-in", f"{name}.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out",
                    f"{name}.pem", "-days", "2", "-extfile", f"{name}.ext")
        for name in ("ca.pem", "broker.pem", "broker.key", "panel.pem"):
            os.chmod(os.path.join(self.root, name), 0o644)
        os.chown(os.path.join(self.root, "panel.key"), 65534, 65534)
        os.chmod(os.path.join(self.root, "panel.key"), 0o600)

    def write_password(self, password, name):
        path = os.path.join(self.root, name)
        with open(path, "w") as f:
            f.write(password + "\n")
        os.chown(path, 65534, 65534)
        os.chmod(path, 0o600)
        return path

    def judge(self, args, pattern):
        return subprocess.run([BINARY] + args, input=pattern + "\n", capture_output=True, text=True, env=self.env, timeout=60)

    def start_broker(self):
        self.broker = subprocess.Popen(["mosquitto", "-c", os.path.join(self.root, "broker.conf")], stdout=subprocess.DEVNULL,
                                       stderr=open(os.path.join(self.root, "broker.log"), "a"))
        deadline = time.time() + 10
        while time.time() < deadline:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            time.sleep(0.05)
        raise Failure("mosquitto did not listen")

    def stop_broker(self):
        self.broker.send_signal(signal.SIGTERM)
        self.broker.wait(timeout=10)

    def start_mqtt(self, socket_path=None, password_file=None, device="Front door", log=None, login=None):
        """patternlock mqtt as patternlock-mqtt.service runs it: systemd makes the socket
        as root, the process runs as nobody. A first connection starts it. `login`
        replaces the port, user name and password file (TLS)."""
        socket_path = socket_path or self.socket
        login = login or ["--port", str(self.port), "--username", USER, "--password-file", password_file or self.password_file]
        command = ["systemd-socket-activate", "-l", socket_path, "-E", "PATTERNLOCK_CONFIG_ROOT",
                   "setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups",
                   BINARY, "mqtt", *login, "--device-name", device]
        process = subprocess.Popen(command, stdout=open(log or self.mqtt_log, "a"), stderr=subprocess.STDOUT, env=self.env,
                                   start_new_session=True)
        wait_for_listener(socket_path, 10, "systemd-socket-activate")
        with socket.socket(socket.AF_UNIX) as s:
            s.connect(socket_path)
        return process

    def subscriber(self, name, clean=True):
        client = mqtt.Client(self.port, name, USER, PASSWORD, clean=clean)
        expect(client.connect() == 0, "the harness's own client was refused")
        client.subscribe("#")
        return client

    def remove(self):
        for process in (self.mqtt, self.broker):
            if process and process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL) if process is self.mqtt else process.kill()
                process.wait()
        shutil.rmtree(self.root, ignore_errors=True)


def event_types(client, since=0):
    return [json.loads(m[1])["event_type"] for m in client.messages[since:] if m[0] == BASE + "/event"]


def wait_event(client, kind, timeout=15):
    message = client.wait_for(lambda t, p, r: t == BASE + "/event" and json.loads(p).get("event_type") == kind, timeout)
    expect(message is not None, f"no {kind} event within {timeout} s (got {event_types(client)})")
    return json.loads(message[1])


def wait_value(client, topic, value, timeout=15):
    message = client.wait_for(lambda t, p, r: t == topic and p == value, timeout)
    expect(message is not None, f"{topic} never became {value}")


def refusals(site):
    def as_root():
        out = subprocess.run([BINARY, "mqtt"], capture_output=True, text=True, env=site.env, timeout=10)
        expect(out.returncode == 2 and len(out.stderr.strip().splitlines()) == 1 and "root" in out.stderr, out.stderr)

    def readable_password():
        loose = site.write_password(PASSWORD, "loose-password")
        os.chmod(loose, 0o644)
        out = subprocess.run(["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", BINARY, "mqtt", "--password-file",
                              loose, "--username", USER], capture_output=True, text=True, env=site.env, timeout=10)
        expect(out.returncode == 2 and len(out.stderr.strip().splitlines()) == 1 and "chmod 600" in out.stderr, out.stderr)

    checks.check("mqtt refuses to run as root, in one line", as_root)
    checks.check("mqtt refuses a password file others can read, in one line", readable_password)


def discovery(site, client):
    def configs():
        found = {}
        deadline = time.time() + 15
        while len(found) < 5 and time.time() < deadline:
            for topic, payload, retained in client.received(lambda t, p, r: t.startswith("homeassistant/")):
                found[topic] = (json.loads(payload), retained)
            time.sleep(0.1)
        return found

    found = configs()

    def five_entities():
        # Retained: a client that subscribes now is given them at once, flagged so.
        late = site.subscriber("harness-late")
        retained = {t for t, p, r in late.received(lambda t, p, r: r) if t.startswith("homeassistant/")}
        deadline = time.time() + 5
        while len(retained) < 5 and time.time() < deadline:
            time.sleep(0.1)
            retained = {t for t, p, r in late.received(lambda t, p, r: r) if t.startswith("homeassistant/")}
        late.close()
        expect(retained == set(found), f"retained: {sorted(retained)}")
        expect(sorted(found) == ["homeassistant/event/front-door/activity/config", "homeassistant/lock/front-door/lock/config",
                                 "homeassistant/number/front-door/brightness/config",
                                 "homeassistant/sensor/front-door/failures/config", "homeassistant/sensor/front-door/lockout/config"],
               f"got {sorted(found)}")

    def lock_schema():
        lock = found["homeassistant/lock/front-door/lock/config"][0]
        # Home Assistant's MQTT lock: command_topic required; these keys and values as documented.
        want = {"command_topic": BASE + "/command", "state_topic": BASE + "/state", "payload_lock": "LOCK", "payload_unlock": "UNLOCK",
                "state_locked": "LOCKED", "state_unlocked": "UNLOCKED", "state_jammed": "JAMMED",
                "availability_topic": BASE + "/availability", "payload_available": "online", "payload_not_available": "offline"}
        for key, value in want.items():
            expect(lock.get(key) == value, f"{key} is {lock.get(key)!r}, not {value!r}")
        expect(lock["device"]["identifiers"] == ["patternlock_front-door"] and lock["device"]["name"] == "Front door", str(lock["device"]))
        expect(len({entity["unique_id"] for entity, _ in found.values()}) == 5, "unique_id repeats")

    def sensors_and_events():
        lockout = found["homeassistant/sensor/front-door/lockout/config"][0]
        expect(lockout["state_topic"] == BASE + "/lockout" and lockout["device_class"] == "duration" and lockout["unit_of_measurement"] == "s",
               str(lockout))
        failures = found["homeassistant/sensor/front-door/failures/config"][0]
        expect(failures["state_topic"] == BASE + "/failures", str(failures))
        events = found["homeassistant/event/front-door/activity/config"][0]
        expect(events["state_topic"] == BASE + "/event", str(events))
        for kind in ("unlock", "duress", "wrong", "lockout", "door_held_open", "remote_unlock_refused"):
            expect(kind in events["event_types"], f"event_types lacks {kind}")

    def brightness_schema():
        number = found["homeassistant/number/front-door/brightness/config"][0]
        # Home Assistant's MQTT number: command_topic required; payload_reset "None" makes it unknown.
        want = {"command_topic": BASE + "/brightness/set", "state_topic": BASE + "/brightness", "min": 1, "max": 100, "step": 1,
                "unit_of_measurement": "%", "mode": "slider", "payload_reset": "None", "optimistic": False,
                "availability_topic": BASE + "/availability"}
        for key, value in want.items():
            expect(number.get(key) == value, f"{key} is {number.get(key)!r}, not {value!r}")

    def online():
        wait_value(client, BASE + "/availability", "online")

    if checks.check("discovery: a lock, two sensors, an event entity and a number, retained", five_entities):
        checks.check("discovery: the lock entity has Home Assistant's keys and values", lock_schema)
        checks.check("discovery: the sensors and the event entity's types", sensors_and_events)
        checks.check("discovery: the brightness is a number from 1 to 100 %, a slider", brightness_schema)
    checks.check("availability is online", online)


def verdicts(site, client):
    def wrong():
        out = site.judge(["check"], WRONGS[0])
        expect(out.returncode == 3, out.stdout + out.stderr)
        event = wait_event(client, "wrong")
        expect(event["failures"] == 1 and "credential" not in event, str(event))
        wait_value(client, BASE + "/state", "LOCKED")
        wait_value(client, BASE + "/failures", "1")

    def right():
        out = site.judge(["check"], RIGHT)
        expect(out.returncode == 0, out.stdout + out.stderr)
        event = wait_event(client, "unlock")
        expect(event.get("credential") == "owner", str(event))
        wait_value(client, BASE + "/state", "UNLOCKED")
        wait_value(client, BASE + "/failures", "0")

    def duress():
        since = len(client.messages)
        out = site.judge(["check"], DURESS)
        expect(out.returncode == 0, "a duress pattern must look like an unlock: " + out.stdout + out.stderr)
        event = wait_event(client, "duress")
        expect(event.get("credential") == "panic", str(event))
        expect(event_types(client, since)[:2] == ["unlock", "duress"], str(event_types(client, since)))

    def lockout():
        for pattern in WRONGS[1:6]:
            site.judge(["check"], pattern)
        event = wait_event(client, "lockout")
        expect(event["failures"] == 5, str(event))
        message = client.wait_for(lambda t, p, r: t == BASE + "/lockout" and json.loads(p).get("lockout") == "timed", 10)
        expect(message is not None and 0 < json.loads(message[1])["locked_for_s"] <= 20, str(message))

    checks.check("a wrong pattern: wrong event with the count, LOCKED, failures 1", wrong)
    checks.check("the right pattern: unlock event naming owner, UNLOCKED, failures 0", right)
    checks.check("the duress credential: an unlock, and a duress event naming it", duress)
    checks.check("five wrong patterns: a lockout event and the lockout's remaining time", lockout)


def lock_link(site, client):
    """The running lock's connection, played here: its state line, then the commands."""
    link = socket.socket(socket.AF_UNIX)
    link.connect(site.socket)
    link.sendall(b'{"event":"state","state":"unlocked","failures":0,"lockout":"none","locked_for_s":0}\n')
    link.settimeout(10)

    def state_line():
        wait_value(client, BASE + "/state", "UNLOCKED")

    def commands():
        for payload, word in (("LOCK", b"lock\n"), ("UNLOCK", b"unlock\n")):
            client.publish(BASE + "/command", payload)
            got = link.recv(64)
            expect(got == word, f"{payload} reached the lock as {got!r}")

    def other_payload():
        client.publish(BASE + "/command", "OPEN")
        link.settimeout(1)
        try:
            got = link.recv(64)
        except socket.timeout:
            got = b""
        expect(got == b"", f"OPEN reached the lock as {got!r}")

    def brightness():
        client.publish(BASE + "/brightness/set", "40")
        link.settimeout(10)
        got = link.recv(64)
        expect(got == b"brightness 40\n", f"40 reached the lock as {got!r}")

    def malformed_brightness():
        for payload in ("040", "+40", " 40", "40.0", "0", "101", "forty"):
            client.publish(BASE + "/brightness/set", payload)
        link.settimeout(1.5)
        try:
            got = link.recv(256)
        except socket.timeout:
            got = b""
        expect(got == b"", f"a malformed brightness reached the lock as {got!r}")
        log = open(site.mqtt_log).read()
        expect("ignored '040' on " + BASE + "/brightness/set (it takes a whole percent" in log, "no line said 040 was ignored")

    def applied_brightness():
        # The lock clamps and applies it, then says the level in its state line.
        link.sendall(b'{"event":"state","state":"unlocked","failures":0,"lockout":"none","locked_for_s":0,"brightness":39}\n')
        wait_value(client, BASE + "/brightness", "39")
        late = site.subscriber("harness-brightness")
        deadline = time.time() + 5
        kept = []
        while not kept and time.time() < deadline:
            time.sleep(0.1)
            kept = late.received(lambda t, p, r: t == BASE + "/brightness" and r)
        late.close()
        expect(kept and kept[-1][1] == "39", f"the brightness is not retained: {kept}")
        # A value the lock clamps to where it was: its answer is published all the same,
        # so Home Assistant's slider goes back.
        client.publish(BASE + "/brightness/set", "95")
        link.settimeout(10)
        got = link.recv(64)
        expect(got == b"brightness 95\n", f"95 reached the lock as {got!r}")
        since = len(client.messages)
        link.sendall(b'{"event":"state","state":"unlocked","failures":0,"lockout":"none","locked_for_s":0,"brightness":39}\n')
        deadline = time.time() + 10
        while time.time() < deadline and not [m for m in client.messages[since:] if m[0] == BASE + "/brightness"]:
            time.sleep(0.05)
        again = [m[1] for m in client.messages[since:] if m[0] == BASE + "/brightness"]
        expect(again[:1] == ["39"], f"the unchanged level was not said again: {again}")
        since = len(client.messages)
        link.sendall(b'{"event":"state","state":"unlocked","failures":0,"lockout":"none","locked_for_s":0,"brightness":"none"}\n')
        deadline = time.time() + 10
        while time.time() < deadline and not [m for m in client.messages[since:] if m[0] == BASE + "/brightness"]:
            time.sleep(0.05)
        fresh = [m[1] for m in client.messages[since:] if m[0] == BASE + "/brightness"]
        expect(fresh[:1] == ["None"], f"without a backlight the state is {fresh}")

    checks.check("the lock's state line sets the state", state_line)
    checks.check("LOCK and UNLOCK reach the running lock as lock and unlock", commands)
    checks.check("another command payload never reaches the lock", other_payload)
    checks.check("a brightness of 40 reaches the running lock as brightness 40", brightness)
    checks.check("a malformed brightness never reaches the lock, and is said", malformed_brightness)
    checks.check("the level the lock applied is the number's retained state, said again after each brightness; None without a backlight",
                 applied_brightness)
    link.close()

    def no_lock():
        client.publish(BASE + "/command", "UNLOCK")
        deadline = time.time() + 10
        while time.time() < deadline:
            if "no running lock is connected" in open(site.mqtt_log).read():
                return
            time.sleep(0.1)
        raise Failure("no line said that no lock took UNLOCK")

    checks.check("UNLOCK with no lock connected is said, and goes nowhere", no_lock)


def retained_commands(site):
    """A retained UNLOCK on a reporter's command topic and a retained brightness on its
    brightness topic, published before the reporter starts, replayed by the broker when
    the reporter subscribes: after the broker's
    restart (kept in its persistence) and across the reporter's own restart. The lock's
    link is connected first each time, so a replayed command would reach it. Then a
    live UNLOCK still does. The reporter logs in under a client id nobody can guess."""
    log = os.path.join(site.root, "retained.log")
    path = os.path.join(site.root, "retained.sock")
    command_topic = "patternlock/side-door/command"
    brightness_topic = "patternlock/side-door/brightness/set"
    sender = site.subscriber("harness-retained")
    sender.publish(command_topic, "UNLOCK", retain=True)
    sender.publish(brightness_topic, "55", retain=True)
    sender.publish("patternlock/side-door/unrelated", "x")  # sent after the retained one, so it has arrived
    expect(sender.wait_for(lambda t, p, r: t == "patternlock/side-door/unrelated", 10) is not None, "the broker relayed nothing")
    sender.close()
    state = {"process": None, "link": None}

    def reporter_with_link_then_broker():
        """The broker away while the reporter starts and the lock's link connects; the
        broker back: the reporter subscribes and is handed the retained UNLOCK."""
        site.stop_broker()
        if state["process"]:
            os.killpg(state["process"].pid, signal.SIGKILL)
            state["process"].wait()
            state["link"].close()
            if os.path.exists(path):
                os.unlink(path)
        state["process"] = site.start_mqtt(path, device="Side door", log=log)
        link = socket.socket(socket.AF_UNIX)
        link.connect(path)
        link.sendall(b'{"event":"state","state":"locked","failures":0,"lockout":"none","locked_for_s":0}\n')
        state["link"] = link
        time.sleep(1)
        before = open(log).read().count("ignored a retained")
        site.start_broker()
        deadline = time.time() + 30
        link.settimeout(0.2)
        while time.time() < deadline:
            try:
                got = link.recv(64)
                raise Failure(f"the retained UNLOCK or brightness reached the lock as {got!r}")
            except socket.timeout:
                pass
            if open(log).read().count("ignored a retained") >= before + 2:
                break
        expect(open(log).read().count("ignored a retained") >= before + 2,
               f"no line said the retained UNLOCK and brightness were ignored: {open(log).read()!r}")
        link.settimeout(1)
        try:
            got = link.recv(64)
            raise Failure(f"the retained UNLOCK reached the lock as {got!r}")
        except socket.timeout:
            pass

    def live_unlock_still_works():
        client = site.subscriber("harness-live")
        client.publish(command_topic, "UNLOCK")
        state["link"].settimeout(10)
        got = state["link"].recv(64)
        expect(got == b"unlock\n", f"a live UNLOCK reached the lock as {got!r}")
        client.close()

    def unguessable_client_id():
        text = open(os.path.join(site.root, "broker.log")).read()
        expect("patternlock-side-door" not in text and "patternlock-front-door" not in text, "a client id named after the device")
        ids = re.findall(r" as (pl[a-z0-9]+)", text)
        side = [i for i in ids if i.startswith("plside")]
        expect(len(side) >= 2 and len(set(side)) >= 2 and all(len(i) == 23 for i in side),
               f"the reporter's client ids: {side}")

    try:
        checks.check("a retained UNLOCK or brightness replayed when the broker comes back never reaches the lock", reporter_with_link_then_broker)
        checks.check("a retained UNLOCK or brightness replayed after the reporter restarts never reaches the lock", reporter_with_link_then_broker)
        checks.check("a live UNLOCK still reaches the lock", live_unlock_still_works)
        checks.check("each start logs in under a new client id of 23 letters and digits, not the device's name", unguessable_client_id)
    finally:
        if site.broker.poll() is not None:  # a check that failed while the broker was away
            site.start_broker()
        cleaner = site.subscriber("harness-clean")
        cleaner.publish(command_topic, b"", retain=True)
        cleaner.publish(brightness_topic, b"", retain=True)
        cleaner.close()
        if state["link"]:
            state["link"].close()
        if state["process"]:
            os.killpg(state["process"].pid, signal.SIGKILL)
            state["process"].wait()


def broker_restart(site):
    """Stopped, two wrong patterns judged meanwhile, started again: both events arrive.
    The harness's subscriber keeps its session across the restart (QoS 1, persistence)."""
    listener = site.subscriber("harness-kept", clean=False)
    time.sleep(0.5)
    listener.close()
    site.stop_broker()
    for pattern in WRONGS[6:8]:
        # The lockout is over by now only if it was short; the counted refusals are events too.
        site.judge(["check"], pattern)
    time.sleep(1)
    site.start_broker()
    listener = site.subscriber("harness-kept", clean=False)
    since = 0

    def none_lost():
        deadline = time.time() + 40
        while time.time() < deadline:
            kinds = event_types(listener, since)
            if len([k for k in kinds if k in ("wrong", "refused", "lockout")]) >= 2:
                return f"events after the restart: {kinds}"
            time.sleep(0.2)
        raise Failure(f"got {event_types(listener, since)} after the broker came back")

    def said_once():
        text = open(site.mqtt_log).read()
        expect("lost the connection" in text, "the lost connection was not said")

    checks.check("events judged while the broker was down arrive once it is back", none_lost)
    checks.check("the lost broker is said, with the retry", said_once)
    listener.close()


def bad_password(site):
    log = os.path.join(site.root, "bad.log")
    wrong_file = site.write_password("not-the-password", "wrong-password")
    process = site.start_mqtt(os.path.join(site.root, "other.sock"), wrong_file, "Back door", log)

    def one_line_and_retries():
        deadline = time.time() + 15
        while time.time() < deadline and "refused the connection" not in open(log).read():
            time.sleep(0.1)
        lines = [line for line in open(log).read().splitlines() if "refused the connection" in line]
        expect(len(lines) == 1 and "password-file" in lines[0], f"log: {open(log).read()!r}")
        time.sleep(4)
        expect(process.poll() is None, "it stopped instead of trying again")
        tries = open(os.path.join(site.root, "broker.log")).read().count("not authorised")
        expect(tries >= 2, f"the broker saw {tries} refused logins in 4 s")

    def lock_keeps_judging():
        out = site.judge(["check"], RIGHT)
        expect(out.returncode in (0, 5), out.stdout + out.stderr)

    checks.check("a bad password: one line naming password-file, and it keeps trying", one_line_and_retries)
    checks.check("the lock keeps judging meanwhile", lock_keeps_judging)
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()


def tls(site):
    """TLS on the broker's second listener, which asks for a client certificate."""
    client = site.subscriber("harness-tls")
    ca = os.path.join(site.root, "ca.pem")

    def with_certificate():
        login = ["--port", str(site.tls_port), "--ca-file", ca, "--cert-file", os.path.join(site.root, "panel.pem"),
                 "--key-file", os.path.join(site.root, "panel.key")]
        process = site.start_mqtt(os.path.join(site.root, "tls.sock"), device="TLS door", log=os.path.join(site.root, "tls.log"),
                                  login=login)
        try:
            wait_value(client, "patternlock/tls-door/availability", "online")
            message = client.wait_for(lambda t, p, r: t == "homeassistant/lock/tls-door/lock/config", 10)
            expect(message is not None, "no discovery over TLS")
        finally:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()

    def without_certificate():
        log = os.path.join(site.root, "tls-refused.log")
        process = site.start_mqtt(os.path.join(site.root, "tls2.sock"), device="Bare door", log=log,
                                  login=["--port", str(site.tls_port), "--ca-file", ca])
        try:
            time.sleep(4)
            expect(process.poll() is None, "it stopped instead of trying again")
            expect(not client.received(lambda t, p, r: t == "patternlock/bare-door/availability" and p == "online"),
                   "connected without the certificate the broker asks for")
            lines = [line for line in open(log).read().splitlines() if line.startswith("patternlock: mqtt:")]
            expect(len(lines) >= 1 and all("trying again" in line for line in lines), f"log: {open(log).read()!r}")
        finally:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()

    checks.check("TLS with a client certificate: online and discovered", with_certificate)
    checks.check("TLS without the client certificate the broker asks for: not connected, said, retried", without_certificate)
    client.close()


def last_will(site):
    client = site.subscriber("harness-will")

    def killed():
        os.killpg(site.mqtt.pid, signal.SIGKILL)
        site.mqtt.wait()
        wait_value(client, BASE + "/availability", "offline", timeout=20)

    checks.check("killed with SIGKILL: the broker publishes the last will, offline", killed)
    client.close()


def main():
    if os.geteuid() != 0:
        print("mqtt: skipped: needs root (the event socket is root's; mqtt runs as nobody)")
        print("mqtt: 0 passed, 0 failed")
        return 0
    site = Site()
    try:
        refusals(site)
        site.start_broker()
        client = site.subscriber("harness")
        site.mqtt = site.start_mqtt()
        discovery(site, client)
        verdicts(site, client)
        lock_link(site, client)
        client.close()
        retained_commands(site)
        broker_restart(site)
        bad_password(site)
        tls(site)
        last_will(site)
    except Failure as failure:
        checks.fail(str(failure))
    finally:
        if checks.failed:
            print("--- mqtt's log ---\n" + open(site.mqtt_log).read())
        site.remove()
    print(f"mqtt: {checks.passed} passed, {checks.failed} failed")
    return 1 if checks.failed else 0


if __name__ == "__main__":
    sys.exit(main())
