"""Python's plistlib as an independent oracle for BundleKit's tests.

  plist_oracle.py dump FILE          print FILE's value in the tagged JSON form
  plist_oracle.py generate SEED DIR  write a random value to DIR/value.xml and DIR/value.bin
                                     (and DIR/value-uid.bin with UIDs), print its tagged form
"""
import calendar
import datetime
import json
import plistlib
import random
import struct
import sys

EPOCH_2001 = datetime.datetime(2001, 1, 1)


def tag(value):
    if isinstance(value, bool):
        return ["B", "true" if value else "false"]
    if isinstance(value, int):
        return ["i", str(value)]
    if isinstance(value, float):
        return ["r", str(struct.unpack("<Q", struct.pack("<d", value))[0])]
    if isinstance(value, str):
        return ["s", value]
    if isinstance(value, bytes):
        return ["b", value.hex()]
    if isinstance(value, datetime.datetime):
        return ["d", str(calendar.timegm(value.utctimetuple()))]
    if isinstance(value, plistlib.UID):
        return ["u", str(value.data)]
    if isinstance(value, list):
        return ["a", [tag(v) for v in value]]
    if isinstance(value, dict):
        return ["D", [[k, tag(v)] for k, v in value.items()]]
    raise TypeError(type(value))


PIECES = ["a", "B", "z", "0", " ", "\t", "\n", "<", ">", "&", '"', "'", ".", "\\",
          "é", "ß", "日本", "😀", "\u0301", "%@"]


def random_string(rng, n=8):
    return "".join(rng.choice(PIECES) for _ in range(rng.randint(0, n)))


def random_scalar(rng, uids):
    kind = rng.randrange(7 if uids else 6)
    if kind == 0:
        return random_string(rng)
    if kind == 1:
        return rng.choice([rng.randint(0, 255), rng.randint(-1000, 1000),
                           rng.randint(-2**63, 2**63 - 1), rng.randint(2**63, 2**64 - 1),
                           -2**63, 2**64 - 1])
    if kind == 2:
        return rng.choice([rng.uniform(-1e6, 1e6), rng.randint(-100, 100) / 4.0,
                           float("inf"), float("-inf")])
    if kind == 3:
        return rng.random() < 0.5
    if kind == 4:
        return EPOCH_2001 + datetime.timedelta(seconds=rng.randint(-3_000_000_000, 3_000_000_000))
    if kind == 5:
        return bytes(rng.randrange(256) for _ in range(rng.randint(0, 60)))
    return plistlib.UID(rng.randint(0, 2**32 - 1))


def random_value(rng, depth, uids):
    roll = rng.randrange(10)
    if depth >= 4 or roll < 6:
        return random_scalar(rng, uids)
    if roll < 8:
        return [random_value(rng, depth + 1, uids) for _ in range(rng.randint(0, 8))]
    return {random_string(rng): random_value(rng, depth + 1, uids) for _ in range(rng.randint(0, 8))}


def main():
    if sys.argv[1] == "dump":
        with open(sys.argv[2], "rb") as f:
            value = plistlib.load(f)
        print(json.dumps(tag(value)))
    elif sys.argv[1] == "generate":
        seed, folder = int(sys.argv[2]), sys.argv[3]
        rng = random.Random(seed)
        value = {random_string(rng): random_value(rng, 1, False) for _ in range(rng.randint(1, 12))}
        with open(folder + "/value.xml", "wb") as f:
            plistlib.dump(value, f, fmt=plistlib.FMT_XML, sort_keys=False)
        with open(folder + "/value.bin", "wb") as f:
            plistlib.dump(value, f, fmt=plistlib.FMT_BINARY, sort_keys=False)
        rng_uid = random.Random(seed + 1)
        value_uid = {random_string(rng_uid): random_value(rng_uid, 1, True) for _ in range(8)}
        with open(folder + "/value-uid.bin", "wb") as f:
            plistlib.dump(value_uid, f, fmt=plistlib.FMT_BINARY, sort_keys=False)
        print(json.dumps([tag(value), tag(value_uid)]))


main()
