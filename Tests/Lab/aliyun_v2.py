"""Alibaba Cloud HTTPDNS v2 request rules for httpdns_fixture.py: `GET /v2/d` parameters, HMAC-SHA256 signatures,
AES-128-CBC (the `openssl` CLI) and AES-128-GCM (python `cryptography`) both ways.

Every rule names the SDK source it follows. Sources, at the commits read:
  AND  aliyun/alibabacloud-httpdns-android-sdk @ eeb17d6 (2.6.7), paths under
       httpdns-sdk/src/main/java/com/alibaba/sdk/android/httpdns/
  iOS  aliyun/alibabacloud-httpdns-ios-sdk @ 2600157 (3.4.2), paths under AlicloudHttpDNS/
  NODE aliyun/alicloud-httpdns-nodejs-sdk @ 17f279b (1.0.0)
Codes marked "fixture" are this lab's own: no SDK or document names a code for that case.
"""
import base64
import hmac
import json
import re
import subprocess
import time
from hashlib import sha256
from urllib.parse import unquote

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

# Mode numbers: AND impl/AESEncryptService.java EncryptionMode L148-161 (PLAIN "0", AES_CBC "1", AES_GCM "2").
PLAIN, CBC, GCM = "0", "1", "2"
# IV lengths: AND impl/AESEncryptService.java L24-25 (GCM 12, CBC 16); GCM tag 128 bits L26, L75.
IV_LENGTH = {CBC: 16, GCM: 12}
TAG_LENGTH = 16
# Signed parameters: AND impl/SignService.java L33 (whitelist) and L75 (any key starting "sdns-").
SIGNED = ("id", "m", "dn", "cip", "q", "enc", "exp", "tags", "v")
# Parameters that travel inside `enc` under m=1|2 and never in the URL: AND resolve/ResolveHostHelper.java
# buildQueryStr L127-146 (dn, q, sdns-*, tags only when enc is empty) and buildEncryptionStr L150-175;
# iOS HttpdnsRemoteResolver.m prepareSigningParams L410-417 and buildFinalUrlWithBase L537-539. `cip` goes with
# them (the request object; no SDK sends it).
ENCRYPTED = ("dn", "q", "cip", "tags")
# Batch limit: AND resolve/BatchResolveHostService.java L108 (maxCountPerRequest = 5); iOS HttpdnsRequestManager.m
# L144-145 (HTTPDNS_PRE_RESOLVE_BATCH_SIZE, 5 in Config/HttpdnsInternalConstant.h L16).
MAX_NAMES = 5
# Longest signature validity accepted: fixture (the v1 limit of 24 h; AND request/HttpException.java L57-61 names
# InvalidDuration "validity too long" without a number).
MAX_VALIDITY = 86400


class V2Error(Exception):
    """A refused request: HTTP status and the `code` of its `{"code":…}` body."""

    def __init__(self, status, code):
        super().__init__(code)
        self.status, self.code = status, code


def is_sdns(key):
    return key.startswith("sdns-")


def signed_string(params):
    """The string a v2 signature covers: the signed parameters with a non-empty value, sorted by key, `k=v` joined
    with `&`, values as sent before any URL encoding (AND impl/SignService.java generateV2SignContent L70-89;
    iOS HttpdnsRemoteResolver.m calculateSignatureForParams L506-514; NODE src/network.ts L373-374)."""
    pairs = sorted((k, v) for k, v in params.items() if (k in SIGNED or is_sdns(k)) and v)
    return "&".join(f"{k}={v}" for k, v in pairs)


def signature(secret_hex, params):
    """Lowercase hex HMAC-SHA256 keyed with the hex-decoded secret (AND impl/SignService.java hmacSha256 L91-97,
    utils/CommonUtil.java encodeHexString L328-337; iOS Utils/HttpdnsUtil.m hmacSha256 L366; NODE src/auth.ts L22)."""
    return hmac.new(bytes.fromhex(secret_hex), signed_string(params).encode(), sha256).hexdigest()


# ------------------------------------------------------------------- crypto
def openssl_enc(args, data):
    p = subprocess.run(["openssl", "enc", *args], input=data, capture_output=True, timeout=10)
    if p.returncode != 0:
        raise ValueError(p.stderr.decode(errors="replace").strip() or "openssl enc failed")
    return p.stdout


def cbc(key, iv, data, decrypt=False):
    """AES-128-CBC with PKCS#7 padding (AND impl/AESEncryptService.java aesCbcEncrypt L80-87 "AES/CBC/PKCS5Padding";
    iOS Utils/HttpdnsUtil.m encryptDataAESCBC L256-292 kCCOptionPKCS7Padding)."""
    return openssl_enc(["-aes-128-cbc", "-K", key.hex(), "-iv", iv.hex(), "-nosalt"] + (["-d"] if decrypt else []), data)


def encrypt(mode, key, iv, plaintext):
    """IV ‖ ciphertext (CBC) or IV ‖ ciphertext ‖ tag (GCM, no associated data): AND impl/AESEncryptService.java
    encrypt L50-62, aesGcmEncrypt L71-78 (Java's doFinal appends the tag)."""
    if mode == CBC:
        return iv + cbc(key, iv, plaintext)
    return iv + AESGCM(key).encrypt(iv, plaintext, None)


def decrypt(mode, key, blob):
    """The plaintext of IV ‖ ciphertext [‖ tag]: AND impl/AESEncryptService.java aesCbcDecrypt L120-128 (IV = first
    16 bytes), aesGcmDecrypt L130-138 (IV = first 12 bytes, the rest ciphertext ‖ tag). ValueError if it fails."""
    n = IV_LENGTH[mode]
    if mode == CBC:
        if len(blob) < n + 16 or (len(blob) - n) % 16:
            raise ValueError("CBC: not IV + whole blocks")
        return cbc(key, blob[:n], blob[n:], decrypt=True)
    if len(blob) < n + TAG_LENGTH:
        raise ValueError("GCM: shorter than IV + tag")
    try:
        return AESGCM(key).decrypt(blob[:n], blob[n:], None)
    except InvalidTag:
        raise ValueError("GCM: tag does not verify") from None


def enc_params(mode, key, enc):
    """The parameters inside `enc`: lowercase hex (AND impl/AESEncryptService.java L62; iOS HttpdnsUtil.m
    hexStringFromData L321) of IV ‖ ciphertext [‖ tag] of a JSON object whose values are strings (AND
    resolve/ResolveHostHelper.java buildEncryptionStr L150-175; iOS HttpdnsRemoteResolver.m encryptParams L470-496).
    Only dn, q, cip, tags and sdns-* may be in it (fixture). ValueError otherwise."""
    try:
        blob = bytes.fromhex(enc)
    except ValueError:
        raise ValueError("enc is not hex") from None
    try:
        obj = json.loads(decrypt(mode, key, blob).decode("utf-8"))
    except UnicodeDecodeError:
        raise ValueError("decrypted enc is not UTF-8") from None
    if not isinstance(obj, dict) or not all(isinstance(v, str) for v in obj.values()):
        raise ValueError("decrypted enc is not a JSON object of strings")
    if not all(k in ENCRYPTED or is_sdns(k) for k in obj):
        raise ValueError("decrypted enc has a key other than dn, q, cip, tags, sdns-*")
    return obj


def encrypt_data(mode, key, text, iv):
    """A response's encrypted `data`: standard Base64 without line breaks (AND impl/AESEncryptService.java decrypt
    L110 via utils/CommonUtil.java decodeBase64 L370-379; iOS HttpdnsRemoteResolver.m decryptData L164, options 0)."""
    return base64.b64encode(encrypt(mode, key, iv, text.encode())).decode()


# ------------------------------------------------------------------ requests
def raw_params(query):
    """Percent-decoded parameters, first value of each, in order; a repeated parameter is refused (fixture). iOS
    percent-encodes plain values (HttpdnsRemoteResolver.m L556, HttpdnsUtil.m URLEncodedString L215-218: `,` goes as
    %2C), AND and NODE send them raw (ResolveHostHelper.java buildQueryStr L127-146; NODE src/helpers.ts
    buildQueryParams), and both sign the raw value, so the server decodes before it verifies."""
    params = {}
    for part in query.split("&"):
        if not part:
            continue
        key, _, value = part.partition("=")
        key, value = unquote(key), unquote(value)
        if key in params:
            raise V2Error(400, "DuplicateParameter")
        params[key] = value
    return params


class Request:
    """A verified `/v2/d` request: account, mode, names (as asked, lower-cased), families ({"4","6"}), cip."""

    def __init__(self, account, mode, names, families, cip):
        self.account, self.mode, self.names, self.families, self.cip = account, mode, names, families, cip


def parse(query, accounts, secret_hex, aes_key, name_ok, ip_ok, now=None):
    """Checks a `/v2/d` query string, in this order, and returns a Request or raises V2Error.

    accounts maps an account id to "optional" (signature checked when sent), "enforced" (unsigned refused) or
    "disabled"; name_ok and ip_ok validate one name and one IP literal."""
    now = time.time() if now is None else now
    q = raw_params(query)
    account = q.get("id")
    # `id` is a query parameter, not a path segment (AND ResolveHostHelper.java buildQueryStr L127; iOS
    # HttpdnsRemoteResolver.m L532); MissingArgument 400 and InvalidAccount 403 per the product document's code table.
    if not account:
        raise V2Error(400, "MissingArgument")
    policy = accounts.get(account)
    if policy is None:
        raise V2Error(403, "InvalidAccount")
    if policy == "disabled":  # AND request/HttpException.java L50-55: "account does not exist or is disabled"
        raise V2Error(403, "AccountNotExists")
    mode = q.get("m") or PLAIN  # absent m taken as plain (fixture; every SDK sends it)
    if mode not in (PLAIN, CBC, GCM):
        raise V2Error(400, "InvalidMode")  # fixture
    if q.get("v") not in (None, "", "1.0"):  # AND ResolveHostHelper.java L56, iOS L408 send 1.0; NODE sends none
        raise V2Error(400, "InvalidVersion")  # fixture
    if mode != PLAIN:
        # Under m=1|2 the names, families, cip, tags and sdns-* travel only inside enc (see ENCRYPTED).
        if any(k in ENCRYPTED or is_sdns(k) for k in q):
            raise V2Error(400, "ParameterInClear")  # fixture
        if not q.get("enc"):
            raise V2Error(400, "MissingArgument")
    verify(q, policy, secret_hex, now)
    if mode == PLAIN:
        params = q
    else:
        try:
            params = enc_params(mode, aes_key, q["enc"])
        except ValueError:
            raise V2Error(400, "InvalidEnc") from None  # fixture
    return Request(account, mode, *names_and_families(params, name_ok), cip_of(params, ip_ok))


def verify(q, policy, secret_hex, now):
    """Signature and expiry. Signing is optional for the client (AND impl/SignService.java isSignMode L107-109; iOS
    HttpdnsRemoteResolver.m L501-503) and enforced per account (AND request/HttpException.java L24-29
    UnsignedInterfaceDisabled). `exp` is unix seconds (AND SignService.java getExpireTime L103-105, now + 600; iOS
    calculateExpiredTimestamp L459-467; NODE src/network.ts L369, now + 300). Like the v1 API here, the signature is
    checked before the expiry. InvalidSignature, SignatureExpired, InvalidDuration: AND HttpException.java L31-61,
    403 as AND's end-to-end tests mock them."""
    s, exp = q.get("s"), q.get("exp")
    if policy == "enforced" and (not s or not exp):
        raise V2Error(403, "UnsignedInterfaceDisabled")
    if not s:
        return
    if not exp:
        raise V2Error(400, "MissingArgument")
    if not exp.isdigit() or not hmac.compare_digest(s.encode(), signature(secret_hex, q).encode()):
        raise V2Error(403, "InvalidSignature")
    if int(exp) <= now:
        raise V2Error(403, "SignatureExpired")
    if int(exp) > now + MAX_VALIDITY:
        raise V2Error(403, "InvalidDuration")


def names_and_families(params, name_ok):
    """`dn`: names joined by `,`, at most MAX_NAMES (AND resolve/ResolveHostHelper.java getConfig(hostList) L237-248),
    else TooManyHosts; one bad name fails the whole request with InvalidHost (AND request/HttpException.java L63-67;
    the server answers one top-level code). `q`: `4`, `6` or `4,6` (AND getQuery L177-190; iOS getQueryTypeString
    L439-446); absent or empty means 4 (AND leaves it out for IPv4)."""
    dn = params.get("dn")
    if not dn:
        raise V2Error(400, "MissingArgument")
    names = [n.lower().removesuffix(".") for n in dn.split(",")]
    if len(names) > MAX_NAMES:
        raise V2Error(400, "TooManyHosts")
    if not all(name_ok(n) for n in names):
        raise V2Error(400, "InvalidHost")
    families = (params.get("q") or "4").split(",")
    if not families or not set(families) <= {"4", "6"} or len(set(families)) != len(families):
        raise V2Error(400, "InvalidQuery")  # fixture (the v1 API's code here)
    return names, set(families)


def cip_of(params, ip_ok):
    """`cip`: one IP literal, the client address the answer is for (the product document's parameter table)."""
    cip = params.get("cip")
    if cip and not ip_ok(cip):
        raise V2Error(400, "InvalidIP")  # fixture (the v1 API's code here)
    return cip or None


def quiet_names(query, aes_key):
    """The names a `/v2/d` query asks for, decrypted when it can be, without any check; [] when none can be read.
    For counting requests on failing listeners and for finding names sent in clear."""
    try:
        q = raw_params(query)
        mode = q.get("m") or PLAIN
        dn = q.get("dn") or ""
        if mode in (CBC, GCM) and q.get("enc"):
            dn = enc_params(mode, aes_key, q["enc"]).get("dn") or dn
        return [n.lower().removesuffix(".") for n in dn.split(",") if n]
    except (V2Error, ValueError, KeyError, OSError, subprocess.SubprocessError):
        return []


def names_in_clear(query, names):
    """True if an encrypted-mode query string shows a name: one it asks for, or anything ending in `.test`."""
    text = query.lower() + "\n" + unquote(query).lower()
    return ".test" in text or any(n and n in text for n in names)


def check_known_answers():
    """The issue's vectors (HMAC, CBC, GCM); a list of the ones this machine's openssl/cryptography get wrong."""
    key = bytes(range(16))
    pt = b'{"dn":"www.aliyun.com","q":"4"}'
    wrong = []
    sign = {"dn": "www.aliyun.com", "exp": "1700000600", "id": "100000", "m": "0", "q": "4", "v": "1.0"}
    if signature("00112233445566778899aabbccddeeff", sign) != \
            "de4e16b1c1670460ecf0c9305d53b52aea17839a106a798741600044203f4ef0":
        wrong.append("HMAC-SHA256")
    try:
        if encrypt(CBC, key, key, pt).hex() != "000102030405060708090a0b0c0d0e0f1a89ed35b9c0ae02418179ac9f205944e4c234fbf61ac89826c803a823117375":
            wrong.append("AES-128-CBC")
    except (ValueError, OSError, subprocess.SubprocessError):
        wrong.append("AES-128-CBC")
    if encrypt(GCM, key, key[:12], pt).hex() != ("000102030405060708090a0be84ec3a04421d5233ca54feb5aca097ddd0879893ecfd1d4"
                                                   "9703cb0f2066df51cf84b0f41cdfc190ff201b9ce3b9e3"):
        wrong.append("AES-128-GCM")
    return wrong


def is_hex_key(text, length=None):
    return bool(re.fullmatch(r"(?:[0-9a-fA-F]{2})+", text)) and (length is None or len(text) == 2 * length)

