"""A client's address as the limits count it: an IPv4 address alone, an IPv6 address by its /64.

One subscriber gets a whole /64 (often larger) and picks any address in it freely, so a limit keyed on
the whole IPv6 address was endless addresses for one client. An IPv4 address mapped into IPv6
(`::ffff:192.0.2.1`) counts as that IPv4 address. Anything else (a test client's `127.0.0.1`, a
malformed header behind a misconfigured proxy) is taken as written. Pure.
"""

from __future__ import annotations

import ipaddress

IPV6_PREFIX = 64


def client_network(address: str) -> str:
    """`2001:db8:1:2::/64` for any address in that /64; an IPv4 address as it is."""
    try:
        parsed = ipaddress.ip_address(address.strip("[]").split("%", 1)[0])
    except ValueError:
        return address
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.IPv6Network((parsed, IPV6_PREFIX), strict=False))
    return str(parsed)
