"""Self-test of httpdns_fixture.py's Alibaba v2 API (`/v2/d`, `/{account}/ss`, `/_v2/*`), driven by a client written
here from the issue's vectors and nothing of the fixture's code (python `cryptography` for CBC and GCM, where the
fixture uses the openssl CLI for CBC). The fixture runs on 127.0.0.25 and 127.0.0.26 (service) at free ports, with
certificates and secrets of its own in a temporary directory: never the running lab.

  python3 -m unittest discover -s Tests/Lab -p 'test_*.py'
"""
import base64
import hashlib
import hmac
import http.client
import json
import os
import secrets
import socket
import ssl
import subprocess
import sys
import tempfile
import time
import unittest
import uuid
from urllib.parse import quote

from cryptography.hazmat.primitives import padding
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

LAB = os.path.dirname(os.path.abspath(__file__))
IP, SERVICE_IP = "127.0.0.25", "127.0.0.26"
V2_NAME = "resolvers.httpdns.aliyuncs.com"
# The issue's vectors: signing secret, AES key, the two IVs, the encrypted object.
SECRET = "00112233445566778899aabbccddeeff"
KEY = bytes(range(16))
IV16, IV12 = bytes(range(16)), bytes(range(12))
PLAINTEXT = b'{"dn":"www.aliyun.com","q":"4"}'
CBC_ENC = "000102030405060708090a0b0c0d0e0f1a89ed35b9c0ae02418179ac9f205944e4c234fbf61ac89826c803a823117375"
GCM_ENC = ("000102030405060708090a0be84ec3a04421d5233ca54feb5aca097ddd0879893ecfd1d49703cb0f2066df"
           "51cf84b0f41cdfc190ff201b9ce3b9e3")
OPTIONAL, ENFORCED, DISABLED, UNKNOWN = "139450", "139451", "139453", "139459"


# ------------------------------------------------------------- the client
def sign(params, secret=SECRET):
    """HMAC-SHA256 (hex-decoded key) over the sorted `k=v` pairs of the non-empty signed parameters."""
    keys = {"id", "m", "dn", "cip", "q", "enc", "exp", "tags", "v"}
    text = "&".join(f"{k}={params[k]}" for k in sorted(params) if (k in keys or k.startswith("sdns-")) and params[k])
    return hmac.new(bytes.fromhex(secret), text.encode(), hashlib.sha256).hexdigest()


def encrypt(mode, plaintext, iv=None, key=KEY):
    if mode == 1:
        iv = iv or os.urandom(16)
        padder = padding.PKCS7(128).padder()
        e = Cipher(algorithms.AES(key), modes.CBC(iv)).encryptor()
        return iv + e.update(padder.update(plaintext) + padder.finalize()) + e.finalize()
    iv = iv or os.urandom(12)
    return iv + AESGCM(key).encrypt(iv, plaintext, None)


def decrypt(mode, blob, key=KEY):
    if mode == 1:
        d = Cipher(algorithms.AES(key), modes.CBC(blob[:16])).decryptor()
        unpadder = padding.PKCS7(128).unpadder()
        return unpadder.update(d.update(blob[16:]) + d.finalize()) + unpadder.finalize()
    return AESGCM(key).decrypt(blob[:12], blob[12:], None)


def query(params):
    """A query string, values percent-encoded as iOS does (`,` as %2C)."""
    return "&".join(f"{k}={quote(str(v), safe='')}" for k, v in params.items())


def plain(dn, q="4", account=OPTIONAL, signed=True, secret=SECRET, exp=None, **extra):
    params = {"id": account, "m": "0", "dn": dn, "q": q, "v": "1.0", "exp": str(exp or int(time.time()) + 600), **extra}
    if signed:
        params["s"] = sign(params, secret)
    return params


def encrypted(mode, obj, account=OPTIONAL, signed=True, iv=None, enc=None):
    enc = enc or encrypt(mode, json.dumps(obj).encode(), iv).hex()
    params = {"id": account, "m": str(mode), "exp": str(int(time.time()) + 600), "v": "1.0", "enc": enc}
    if signed:
        params["s"] = sign(params)
    return params


def fresh(label="v2"):
    return f"{label}-{uuid.uuid4().hex[:12]}.any.test"


class Fixture:
    """The fixture process and requests to its listeners."""

    def __init__(self, tmp):
        self.tmp = tmp
        self.ca = self.certificates()
        self.write_secrets()
        self.ports = free_ports(5)
        self.port = dict(zip(("http", "aliyun-tls", "tls", "fail", "aliyun-v2-tls"), self.ports))
        args = [sys.executable, os.path.join(LAB, "httpdns_fixture.py"), "--ip", IP, "--service-ip", SERVICE_IP]
        args += [a for name, port in self.port.items() for a in (f"--{name}-port", str(port))]
        for flag, cert in (("aliyun", "resolvers-cn"), ("aliyun-v2", "resolvers"), ("", "httpdns")):
            args += [f"--{flag}{'-' if flag else ''}cert", f"{tmp}/{cert}.pem", f"--{flag}{'-' if flag else ''}key",
                     f"{tmp}/{cert}.key"]
        args += ["--secrets", f"{tmp}/secrets", "--pidfile", f"{tmp}/fixture.pid"]
        self.log = open(f"{tmp}/fixture.log", "w")
        self.process = subprocess.Popen(args, stdout=self.log, stderr=self.log, stdin=subprocess.DEVNULL)
        for _ in range(200):
            if os.path.exists(f"{tmp}/fixture.pid") or self.process.poll() is not None:
                break
            time.sleep(0.05)
        if not os.path.exists(f"{tmp}/fixture.pid"):
            self.stop()
            with open(f"{tmp}/fixture.log") as f:
                raise RuntimeError("the fixture did not start: " + f.read())

    def certificates(self):
        run = lambda *a: subprocess.run(["openssl", *a], check=True, capture_output=True, cwd=self.tmp)
        run("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", "ca.key",
            "-out", "ca.pem", "-days", "2", "-subj", "/CN=fixture self-test CA", "-addext",
            "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign")
        for name, san in (("resolvers-cn", "DNS:resolvers-cn.httpdns.aliyuncs.com"), ("resolvers", "DNS:" + V2_NAME),
                          ("httpdns", f"IP:{IP}, DNS:httpdns.test")):
            run("req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout",
                f"{name}.key", "-out", f"{name}.csr", "-subj", f"/CN={name}")
            with open(f"{self.tmp}/{name}.ext", "w") as f:
                f.write(f"basicConstraints=critical,CA:FALSE\nextendedKeyUsage=serverAuth\nsubjectAltName={san}\n")
            run("x509", "-req", "-in", f"{name}.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-set_serial", "1",
                "-days", "2", "-extfile", f"{name}.ext", "-out", f"{name}.pem")
        return f"{self.tmp}/ca.pem"

    def write_secrets(self):
        os.makedirs(f"{self.tmp}/secrets", mode=0o700)
        for file, value in (("aliyun.secret", SECRET), ("aliyun-aes.key", KEY.hex()), ("dnspod-aes.key", "a" * 16),
                            ("dnspod-des.key", "b" * 8), ("dnspod.token", "123456789")):
            with open(f"{self.tmp}/secrets/{file}", "w", opener=lambda path, flags: os.open(path, flags, 0o600)) as f:
                f.write(value)

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()

    def get(self, path, listener="http", ip=IP, method="GET", sni=V2_NAME):
        """(status, parsed JSON body or raw text, content type) of one request."""
        port = self.port["aliyun-v2-tls" if listener == "service-tls" else "http" if listener == "service-http"
                         else listener]
        if listener.endswith("tls"):
            ctx = ssl.create_default_context(cafile=self.ca)
            conn = PinnedHTTPS(ip, port, sni, ctx)
        else:
            conn = http.client.HTTPConnection(ip, port, timeout=10)
        try:
            conn.request(method, path)
            r = conn.getresponse()
            body, ctype = r.read(), r.getheader("Content-Type") or ""
        finally:
            conn.close()
        return r.status, json.loads(body) if ctype.startswith("application/json") else body.decode(), ctype

    def v2(self, params, listener="http", ip=IP, raw=None):
        status, body, _ = self.get("/v2/d?" + (raw or query(params)), listener, ip)
        return status, body

    def log_of(self, **filters):
        return self.get("/_v2/log?" + query(filters))[1]["requests"]


class PinnedHTTPS(http.client.HTTPSConnection):
    """HTTPS to an IP with SNI, certificate check and Host on a name."""

    def __init__(self, ip, port, name, context):
        super().__init__(name, port, context=context, timeout=10)
        self.ip = ip

    def connect(self):
        self.sock = self._context.wrap_socket(socket.create_connection((self.ip, self.port), self.timeout),
                                              server_hostname=self.host)


def free_ports(count):
    ports = []
    while len(ports) < count:
        with socket.socket() as s:
            s.bind((IP, 0))
            port = s.getsockname()[1]
        try:
            with socket.socket() as s:
                s.bind((SERVICE_IP, port))
        except OSError:
            continue
        if port not in ports:
            ports.append(port)
    return ports


# ------------------------------------------------------------------ tests
class ClientKnownAnswers(unittest.TestCase):
    """This file's client reproduces the issue's vectors, so the fixture is checked against them below."""

    def test_hmac_vectors(self):
        msg = {"dn": "www.aliyun.com", "exp": "1700000600", "id": "100000", "m": "0", "q": "4", "v": "1.0"}
        self.assertEqual(sign(msg), "de4e16b1c1670460ecf0c9305d53b52aea17839a106a798741600044203f4ef0")
        self.assertEqual(sign({**msg, "dn": "www.aliyun.com,www.taobao.com", "q": "4,6"}),
                         "59345d21584d9b95c41fc293c595c17f3f6faa6dafb37b07e11107570d21db7f")
        self.assertEqual(sign({k: v for k, v in msg.items() if k != "v"}),
                         "7cfb484cf1f119b208049f396d4c2ce99d77da59bd62c30a0744b311f38b0d62")
        self.assertEqual(sign({"enc": CBC_ENC, "exp": "1700000600", "id": "100000", "m": "1", "v": "1.0"}),
                         "32372523bf176bfa75805b01d9d60a5f2b4c3b530bc9a07cce46102cfd0ad616")
        self.assertEqual(sign({"enc": GCM_ENC, "exp": "1700000600", "id": "100000", "m": "2", "v": "1.0"}),
                         "8561a2d2ad73b3d029b5a705209814e4eebffa8502179463a33650d8e7adbc81")

    def test_cbc_and_gcm_vectors(self):
        self.assertEqual(encrypt(1, PLAINTEXT, IV16).hex(), CBC_ENC)
        self.assertEqual(encrypt(2, PLAINTEXT, IV12).hex(), GCM_ENC)
        self.assertEqual(decrypt(1, bytes.fromhex(CBC_ENC)), PLAINTEXT)
        self.assertEqual(decrypt(2, bytes.fromhex(GCM_ENC)), PLAINTEXT)
        answer = b'{"cip":"1.2.3.4","answers":[{"dn":"www.aliyun.com","v4":{"ips":["1.1.1.1"],"ttl":60}}]}'
        self.assertEqual(base64.b64encode(encrypt(1, answer, IV16)).decode(),
                         "AAECAwQFBgcICQoLDA0ODyo9M52yoqL7dqL4jpCVd3mKxhi+8ROoERPLRLjlwJ876xoPc67FYeMiyrHQCb6M37n2sMnQR"
                         "R/nQfayeYLLVJC5kEScZCe0Gog4WGdVnNij/Oe8dlaVXLHL59onz0nxMQ==")
        self.assertEqual(base64.b64encode(encrypt(2, answer, IV12)).decode(),
                         "AAECAwQFBgcICQoL6E7EpxY5zXZ6/FOkBY1EKp8Ee4ggmpiElQPLdm9mxgKnnvmAg/eZgiydcJKup7T9ob040nKzFEF"
                         "VbBui2W4sv7g/239xfeQvAW1dfQhOZHlSmrUWdMHgQDXVMS0n/Iahi999jY7slA==")


class FixtureV2Tests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmpdir = tempfile.TemporaryDirectory(prefix="fixture-v2-")
        cls.fx = Fixture(cls.tmpdir.name)

    @classmethod
    def tearDownClass(cls):
        cls.fx.stop()
        cls.tmpdir.cleanup()

    def assertCode(self, result, status, code):
        self.assertEqual(result, (status, {"code": code}))

    def data(self, result, mode):
        """The `data` object of a success answer, decrypted here for m=1|2."""
        status, body = result
        self.assertEqual(status, 200, body)
        self.assertEqual((body["code"], body["mode"]), ("success", mode))
        if mode == 0:
            return body["data"]
        return json.loads(decrypt(mode, base64.b64decode(body["data"], validate=True)))

    # ----------------------------------------------------------- plain mode
    def test_plain_signed_batch_with_encoded_commas(self):
        params = plain("a.test,B.test,v6.test,nowhere.test", q="4,6", cip="192.0.2.7")
        self.assertIn("%2C", query(params))
        data = self.data(self.fx.v2(params), 0)
        self.assertEqual(data, {"cip": "192.0.2.7", "answers": [
            {"dn": "a.test", "v4": {"ips": ["127.0.0.2"], "ttl": 60}, "v6": {"ips": ["::1"], "ttl": 60}},
            {"dn": "b.test", "v4": {"ips": ["127.0.0.2"], "ttl": 300},
             "v6": {"ips": [], "ttl": 60, "no_ip_code": "RRNotExist"}},
            {"dn": "v6.test", "v4": {"ips": [], "ttl": 60, "no_ip_code": "RRNotExist"}, "v6": {"ips": ["::1"], "ttl": 60}},
            {"dn": "nowhere.test", "v4": {"ips": [], "ttl": 60, "no_ip_code": "DomainNotExist"},
             "v6": {"ips": [], "ttl": 60, "no_ip_code": "DomainNotExist"}}]})
        raw = query(params).replace("%2C", ",")  # AND and NODE send the commas raw
        self.assertEqual(self.data(self.fx.v2(None, raw=raw), 0)["answers"][0]["dn"], "a.test")

    def test_plain_families_default_to_4_and_unsigned_extras_are_ignored(self):
        params = plain("a.test", q="")  # AND leaves q out for IPv4: neither sent nor signed
        data = self.data(self.fx.v2({**params, "sid": "abc123", "net": "wifi", "sdk": "ios_3.4.2"}), 0)
        self.assertEqual(data["answers"], [{"dn": "a.test", "v4": {"ips": ["127.0.0.2"], "ttl": 60}}])
        self.assertTrue(data["cip"].startswith("127."), data)
        node = {"id": OPTIONAL, "dn": "a.test", "q": "6", "m": "0", "exp": str(int(time.time()) + 300)}
        self.assertEqual(self.data(self.fx.v2({**node, "s": sign(node)}), 0)["answers"][0]["v6"]["ips"], ["::1"])
        self.assertEqual(self.fx.v2(plain("a.test", signed=False))[0], 200)

    def test_signature_and_expiry(self):
        now = int(time.time())
        self.assertCode(self.fx.v2(plain("a.test", secret="ff" * 16)), 403, "InvalidSignature")
        upper = plain("a.test")
        self.assertCode(self.fx.v2({**upper, "s": upper["s"].upper()}), 403, "InvalidSignature")
        tagged = {**plain("a.test", signed=False), "tags": "blue", "sdns-region": "east"}
        self.assertEqual(self.fx.v2({**tagged, "s": sign(tagged)})[0], 200)
        self.assertCode(self.fx.v2({**tagged, "s": sign(tagged), "tags": "red"}), 403, "InvalidSignature")
        self.assertCode(self.fx.v2({**tagged, "s": sign(tagged), "sdns-region": "west"}), 403, "InvalidSignature")
        self.assertCode(self.fx.v2(plain("a.test", exp=now - 1)), 403, "SignatureExpired")
        self.assertCode(self.fx.v2(plain("a.test", exp=now + 86400 + 60)), 403, "InvalidDuration")
        no_exp = plain("a.test", signed=False)
        del no_exp["exp"]
        self.assertCode(self.fx.v2({**no_exp, "s": sign(no_exp)}), 400, "MissingArgument")

    def test_accounts(self):
        self.assertCode(self.fx.v2(plain("a.test", account=ENFORCED, signed=False)), 403, "UnsignedInterfaceDisabled")
        self.assertEqual(self.fx.v2(plain("a.test", account=ENFORCED))[0], 200)
        self.assertCode(self.fx.v2(encrypted(2, {"dn": "a.test"}, account=ENFORCED, signed=False)), 403,
                        "UnsignedInterfaceDisabled")
        self.assertCode(self.fx.v2(plain("a.test", account=UNKNOWN)), 403, "InvalidAccount")
        self.assertCode(self.fx.v2(plain("a.test", account=DISABLED)), 403, "AccountNotExists")
        self.assertCode(self.fx.v2({"m": "0", "dn": "a.test"}), 400, "MissingArgument")

    def test_argument_errors(self):
        self.assertCode(self.fx.v2(plain(",".join(f"n{i}.test" for i in range(6)))), 400, "TooManyHosts")
        self.assertEqual(self.fx.v2(plain(",".join(f"n{i}.test" for i in range(5))))[0], 200)
        self.assertCode(self.fx.v2(plain("a.test,bad..test")), 400, "InvalidHost")
        self.assertCode(self.fx.v2(plain("a.test,")), 400, "InvalidHost")
        self.assertCode(self.fx.v2(plain("a.test", q="5")), 400, "InvalidQuery")
        self.assertCode(self.fx.v2(plain("a.test", q="4,4")), 400, "InvalidQuery")
        self.assertCode(self.fx.v2(plain("a.test", cip="nope")), 400, "InvalidIP")
        self.assertCode(self.fx.v2({**plain("a.test", signed=False), "m": "3"}), 400, "InvalidMode")
        self.assertCode(self.fx.v2({**plain("a.test", signed=False), "v": "2.0"}), 400, "InvalidVersion")
        self.assertCode(self.fx.v2(None, raw=query(plain("a.test")) + "&id=" + OPTIONAL), 400, "DuplicateParameter")
        self.assertCode(self.fx.v2({"id": OPTIONAL, "m": "0"}), 400, "MissingArgument")
        status, body, _ = self.fx.get("/v2/d?" + query(plain("a.test")), method="POST")
        self.assertEqual((status, body), (405, {"code": "MethodNotAllowed"}))

    # ------------------------------------------------------ encrypted mode
    def test_encrypted_round_trips(self):
        for mode in (1, 2):
            for signed in (True, False):
                name = fresh(f"m{mode}")
                obj = {"dn": f"{name},a.test", "q": "4,6", "cip": "198.51.100.9"}
                data = self.data(self.fx.v2(encrypted(mode, obj, signed=signed)), mode)
                self.assertEqual(data, {"cip": "198.51.100.9", "answers": [
                    {"dn": name, "v4": {"ips": ["127.0.0.2"], "ttl": 60}, "v6": {"ips": ["::1"], "ttl": 60}},
                    {"dn": "a.test", "v4": {"ips": ["127.0.0.2"], "ttl": 60}, "v6": {"ips": ["::1"], "ttl": 60}}]})
                [entry] = self.fx.log_of(name=name)
                self.assertEqual((entry["mode"], entry["names"], entry["names_in_clear"]), (str(mode), [name, "a.test"], False))
                self.assertNotIn(".test", entry["query"])

    def test_issue_vectors_decrypt_in_the_fixture(self):
        for mode, enc in ((1, CBC_ENC), (2, GCM_ENC)):
            data = self.data(self.fx.v2(encrypted(mode, None, enc=enc)), mode)
            self.assertEqual(data["answers"], [{"dn": "www.aliyun.com",
                                                "v4": {"ips": [], "ttl": 60, "no_ip_code": "DomainNotExist"}}])

    def test_encrypted_mode_refusals(self):
        name = fresh("clear")
        leak = {**encrypted(1, {"dn": name}), "dn": name}
        self.assertCode(self.fx.v2(leak), 400, "ParameterInClear")
        [entry] = self.fx.log_of(name=name)
        self.assertTrue(entry["names_in_clear"])
        for key, value in (("q", "4"), ("cip", "192.0.2.1"), ("tags", "x"), ("sdns-k", "v")):
            self.assertCode(self.fx.v2({**encrypted(2, {"dn": "a.test"}), key: value}), 400, "ParameterInClear")
        self.assertCode(self.fx.v2({k: v for k, v in encrypted(1, {"dn": "a.test"}, signed=False).items() if k != "enc"}),
                        400, "MissingArgument")
        good = encrypted(2, {"dn": "a.test"}, signed=False)
        flipped = good["enc"][:-1] + ("0" if good["enc"][-1] != "0" else "1")
        self.assertCode(self.fx.v2({**good, "enc": flipped}), 400, "InvalidEnc")
        other_key = encrypt(1, b'{"dn":"a.test"}', key=b"k" * 16).hex()
        self.assertCode(self.fx.v2(encrypted(1, None, enc=other_key, signed=False)), 400, "InvalidEnc")
        self.assertCode(self.fx.v2(encrypted(1, {"dn": "a.test", "id": OPTIONAL})), 400, "InvalidEnc")
        self.assertCode(self.fx.v2(encrypted(2, {"dn": "a.test", "q": 4})), 400, "InvalidEnc")
        self.assertCode(self.fx.v2(encrypted(2, {"q": "4"})), 400, "MissingArgument")
        self.assertCode(self.fx.v2(encrypted(1, {"dn": "x.test," * 5 + "y.test"})), 400, "TooManyHosts")

    def test_encrypted_signature_covers_enc_exp_id_m_v_only(self):
        params = encrypted(1, {"dn": "a.test"}, signed=False)
        self.assertEqual(self.fx.v2({**params, "s": sign(params)})[0], 200)
        with_dn = sign({**params, "dn": "a.test"})  # a client that signed the plain-mode set too
        self.assertCode(self.fx.v2({**params, "s": with_dn}), 403, "InvalidSignature")
        self.assertCode(self.fx.v2({**params, "enc": encrypt(1, b'{"dn":"b.test"}').hex(), "s": sign(params)}),
                        403, "InvalidSignature")

    # ---------------------------------------------------- corpus, /ss, log
    def test_corpus_kinds(self):
        self.assertCode(self.fx.v2(plain("a.test,server-error.test")), 500, "InternalError")
        status, body, ctype = self.fx.get("/v2/d?" + query(plain("portal.test")))
        self.assertEqual((status, ctype), (200, "text/html; charset=utf-8"))
        answers = self.data(self.fx.v2(plain("wrong-host.test,empty.test,cname.test", q="4")), 0)["answers"]
        self.assertEqual(answers, [{"dn": "evil.test", "v4": {"ips": ["127.0.0.2"], "ttl": 60}},
                                   {"dn": "empty.test", "v4": {"ips": [], "ttl": 60}, "v6": {"ips": [], "ttl": 60}},
                                   {"dn": "cname.test", "v4": {"ips": ["127.0.0.2"], "ttl": 60}}])
        status, body = self.fx.v2(encrypted(1, {"dn": "dup-key.test"}))
        text = decrypt(1, base64.b64decode(body["data"])).decode()
        self.assertIn('"v4":{"ips":["127.0.0.2"],"ttl":60,"ip\\u0073":["127.0.0.9"]}', text)

    def test_service_discovery_names_the_service_listener(self):
        account = "139460"
        status, ss, _ = self.fx.get(f"/{account}/ss?region=global&platform=android&sid=x", "aliyun-v2-tls")
        self.assertEqual((status, ss), (200, {"service_ip": [SERVICE_IP], "service_ipv6": [],
                                              "service_ip_port": [self.fx.port["aliyun-v2-tls"]], "service_ipv6_port": []}))
        status, ss, _ = self.fx.get(f"/{account}/ss", "http")
        self.assertEqual(ss["service_ip_port"], [self.fx.port["http"]])
        name = fresh("svc")
        self.assertEqual(self.fx.v2(plain(name, account=account), "service-tls", SERVICE_IP)[0], 200)
        [entry] = self.fx.log_of(name=name)
        self.assertEqual((entry["listener"], entry["sni"], entry["host"]),
                         ("service-tls", V2_NAME, f"{V2_NAME}:{self.fx.port['aliyun-v2-tls']}"))
        ss_log = self.fx.log_of(id=account, path=f"/{account}/ss")
        self.assertEqual([(e["listener"], e["sni"], e["status"]) for e in ss_log],
                         [("aliyun-v2-tls", V2_NAME, 200), ("http", None, 200)])
        self.assertCode(self.fx.get(f"/{account}/ss?region=mars")[:2], 400, "InvalidRegion")
        self.assertCode(self.fx.get(f"/{UNKNOWN}/ss")[:2], 403, "InvalidAccount")
        self.assertEqual(self.fx.get(f"/{account}/ss", "fail")[0], 503)

    def test_failing_service_addresses_until_the_next_ss(self):
        account, other = "139461", "139462"
        self.assertEqual(self.fx.get("/_v2/fail-services?id=" + UNKNOWN)[0], 400)
        self.assertEqual(self.fx.get("/_v2/fail-services?id=" + account)[:2], (200, {"ok": True}))
        name = fresh("down")
        for listener in ("service-tls", "service-http"):
            self.assertEqual(self.fx.v2(encrypted(2, {"dn": name}, account=account), listener, SERVICE_IP)[0], 503)
        self.assertEqual(self.fx.get(f"/{account}/ss", "service-tls", SERVICE_IP)[0], 503)
        self.assertEqual(self.fx.v2(plain(name, account=other), "service-tls", SERVICE_IP)[0], 200)
        self.assertEqual(self.fx.v2(plain(name, account=account), "aliyun-v2-tls")[0], 200)
        stats = self.fx.get("/_stats")[1]
        self.assertEqual(stats["by_name"].get("fail:" + name), 2)
        self.assertEqual(self.fx.get(f"/{account}/ss", "aliyun-v2-tls")[0], 200)
        self.assertEqual(self.fx.v2(plain(name, account=account), "service-tls", SERVICE_IP)[0], 200)
        self.assertEqual([(e["listener"], e["status"]) for e in self.fx.log_of(name=name, id=account)],
                         [("service-tls", 503), ("service-http", 503), ("aliyun-v2-tls", 200), ("service-tls", 200)])

    def test_counters(self):
        before = self.fx.get("/_stats")[1]["v2"]
        name = fresh("count")
        self.fx.v2(encrypted(1, {"dn": name}))
        self.fx.v2({**encrypted(1, {"dn": name}), "dn": name})
        self.fx.get(f"/{OPTIONAL}/ss")
        after = self.fx.get("/_stats")[1]["v2"]
        # Other tests of this class do not run at the same time: the global counters move by exactly this.
        self.assertEqual((after["d"] - before["d"], after["ss"] - before["ss"],
                          after["names_in_clear"] - before["names_in_clear"]), (2, 1, 1))
        self.assertEqual(self.fx.get("/_stats")[1]["by_name"].get(name), 1)
        self.assertEqual(self.fx.get("/139450/d?host=a.test")[1]["ips"], ["127.0.0.2"])  # v1 beside v2


if __name__ == "__main__":
    unittest.main()
