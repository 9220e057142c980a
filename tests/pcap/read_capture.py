#!/usr/bin/python3
"""Reads a capture pcisim wrote with --pcap and prints what a test checks, as JSON:

  read_capture.py FILE.pcapng

The frames are read with scapy's pcapng reader (Debian's python3-scapy): their times, sizes and
TCP/IP headers.  The interfaces and each frame's direction (which scapy does not expose) come
from the blocks themselves.
"""
import json
import struct
import sys

from scapy.layers.inet import IP, TCP
from scapy.layers.l2 import Ether
from scapy.utils import PcapNgReader


def blocks(path):
    """(type, body) of every pcapng block, little-endian (pcisim writes that byte order)."""
    with open(path, "rb") as f:
        data = f.read()
    at = 0
    while at < len(data):
        kind, length = struct.unpack_from("<II", data, at)
        yield kind, data[at + 8:at + length - 4]
        at += length


def options(body):
    out = {}
    at = 0
    while at + 4 <= len(body):
        code, length = struct.unpack_from("<HH", body, at)
        if code == 0:
            break
        out[code] = body[at + 4:at + 4 + length]
        at += 4 + (length + 3) // 4 * 4
    return out


def checksums_ok(p):
    """The IP and TCP checksums as the frame has them equal those scapy computes."""
    again = IP(bytes(p[IP]))
    del again.chksum
    del again[TCP].chksum
    again = IP(bytes(again))
    return again.chksum == p[IP].chksum and again[TCP].chksum == p[TCP].chksum


def main():
    path = sys.argv[1]
    interfaces, frames = [], []
    for kind, body in blocks(path):
        if kind == 1:  # interface description: linktype, snaplen, options
            linktype = struct.unpack_from("<H", body, 0)[0]
            o = options(body[8:])
            interfaces.append({"name": o[2].decode(), "linktype": linktype,
                               "tsresol": o[9][0]})
        elif kind == 6:  # enhanced packet: interface, time, lengths, data, options
            iface, high, low, captured, original = struct.unpack_from("<IIIII", body, 0)
            o = options(body[20 + (captured + 3) // 4 * 4:])
            direction = struct.unpack("<I", o[2])[0] & 3 if 2 in o else 0
            frames.append({"interface": iface, "ns": (high << 32) | low, "len": original,
                           "direction": {1: "in", 2: "out"}.get(direction, "?")})
    packets = list(PcapNgReader(path))
    assert len(packets) == len(frames), (len(packets), len(frames))
    for f, p in zip(frames, packets):
        # scapy's time from the same stamp, in seconds (Decimal): nanoseconds agree.
        f["scapy_ns"] = int(round(p.time * 10**9))
        f["scapy_len"] = len(p)
        if Ether in p and IP in p and TCP in p:
            f["tcp"] = {"seq": p[TCP].seq, "payload": len(p[TCP].payload), "ip_len": p[IP].len,
                        "checksums_ok": checksums_ok(p)}
    json.dump({"interfaces": interfaces, "frames": frames}, sys.stdout)


if __name__ == "__main__":
    main()
