//! What a web address *is*, for the card and for rules: where it leads ([`destination`]) and
//! whether it fits a rule's address pattern ([`UrlPattern`]), both decided on the parts the
//! `url` crate parses (scheme, host, port, path, query), never on the text the model wrote.
//!
//! The `url` crate follows the WHATWG URL standard (<https://url.spec.whatwg.org/>): it lowers
//! the case of `http`/`https` hosts, turns international names into punycode (`bücher.de` →
//! `xn--bcher-kva.de`), reads every IPv4 spelling (`2130706433`, `0x7f.1`, `0177.0.0.1`,
//! `127.1`) as the address it means, removes `.` and `..` path segments, and separates the user
//! name (`http://example.com@evil.net/` is a request to `evil.net`). Everything here works on
//! what it parsed.

use globset::{GlobBuilder, GlobMatcher};
use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::str::FromStr;
use url::{Host, Url};

/// Where an address leads, as far as its literal host tells (no DNS lookup).
///
/// Ordered from nearest to farthest. A host name that is not obviously local is
/// [`Destination::Internet`]; whoever connects must still check what the name resolves to
/// (`fetch_url` does, and refuses when the answer is nearer than the card said).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Destination {
    /// This computer itself: loopback (`127.0.0.0/8`, `::1`), the unspecified address
    /// (`0.0.0.0/8`, `::`), `localhost` and any `*.localhost` name (RFC 6761 §6.3), and
    /// IPv6 forms that carry such an IPv4 address (`::ffff:127.0.0.1`, `::127.0.0.1`,
    /// `64:ff9b::7f00:1`). A URL without a host (`file:///…`) is here too.
    ThisComputer,
    /// The local network: private IPv4 (RFC 1918: `10/8`, `172.16/12`, `192.168/16`),
    /// link-local `169.254/16` (which holds cloud metadata at `169.254.169.254`), shared
    /// address space `100.64/10` (RFC 6598, also used by VPNs such as Tailscale), multicast,
    /// broadcast and the reserved `240/4`; IPv6 unique-local `fc00::/7`, link-local
    /// `fe80::/10`, site-local `fec0::/10`, multicast `ff00::/8`; a name of one label
    /// (`intranet`) or ending in `.local` (mDNS, RFC 6762), `.internal`, `.lan` or
    /// `.home.arpa` (RFC 8375).
    LocalNetwork,
    /// Anywhere else.
    Internet,
}

impl Destination {
    /// Where an IP address leads (see the variants for the ranges).
    pub fn of_ip(ip: IpAddr) -> Destination {
        match ip {
            IpAddr::V4(v4) => of_ipv4(v4),
            IpAddr::V6(v6) => of_ipv6(v6),
        }
    }
}

/// Where `url` leads, from its literal host alone (no DNS lookup): see [`Destination`].
pub fn destination(url: &Url) -> Destination {
    match url.host() {
        None => Destination::ThisComputer,
        Some(Host::Ipv4(ip)) => of_ipv4(ip),
        Some(Host::Ipv6(ip)) => of_ipv6(ip),
        Some(Host::Domain(name)) => of_name(name),
    }
}

fn of_ipv4(ip: Ipv4Addr) -> Destination {
    let [a, b, ..] = ip.octets();
    if a == 127 || a == 0 {
        Destination::ThisComputer
    } else if a == 10
        || (a == 172 && (16..=31).contains(&b))
        || (a == 192 && b == 168)
        || (a == 169 && b == 254)
        || (a == 100 && (64..=127).contains(&b))
        // Benchmarking networks (198.18/15) and IETF protocol assignments (192.0.0/24) are
        // not on the internet either.
        || (a == 198 && (18..=19).contains(&b))
        || (a == 192 && b == 0 && ip.octets()[2] == 0)
        || a >= 224
    {
        Destination::LocalNetwork
    } else {
        Destination::Internet
    }
}

fn of_ipv6(ip: Ipv6Addr) -> Destination {
    if let Some(v4) = ip.to_ipv4_mapped() {
        return of_ipv4(v4);
    }
    if ip.is_loopback() || ip.is_unspecified() {
        return Destination::ThisComputer;
    }
    let s = ip.segments();
    // IPv4-compatible (`::a.b.c.d`, deprecated) and the NAT64 well-known prefix (RFC 6052)
    // carry an IPv4 address in their last 32 bits.
    if s[..6] == [0; 6] || s[..6] == [0x64, 0xff9b, 0, 0, 0, 0] {
        return of_ipv4(Ipv4Addr::from((u32::from(s[6]) << 16) | u32::from(s[7])));
    }
    // 6to4 (RFC 3056) carries an IPv4 address in bits 16..48.
    if s[0] == 0x2002 {
        return of_ipv4(Ipv4Addr::from((u32::from(s[1]) << 16) | u32::from(s[2])));
    }
    // The NAT64 local-use prefix (RFC 8215) leads to this site's own network.
    if s[..3] == [0x64, 0xff9b, 1] {
        return Destination::LocalNetwork;
    }
    let unique_local = s[0] & 0xfe00 == 0xfc00;
    let link_local = s[0] & 0xffc0 == 0xfe80;
    let site_local = s[0] & 0xffc0 == 0xfec0;
    let multicast = s[0] & 0xff00 == 0xff00;
    if unique_local || link_local || site_local || multicast {
        Destination::LocalNetwork
    } else {
        Destination::Internet
    }
}

fn of_name(name: &str) -> Destination {
    let name = name.trim_end_matches('.').to_ascii_lowercase();
    // An opaque host of a non-web scheme is not parsed as an address by `url`.
    if let Ok(ip) = name
        .trim_start_matches('[')
        .trim_end_matches(']')
        .parse::<IpAddr>()
    {
        return Destination::of_ip(ip);
    }
    if name == "localhost" || name.ends_with(".localhost") {
        Destination::ThisComputer
    } else if !name.contains('.')
        || [".local", ".internal", ".lan", ".home.arpa"]
            .iter()
            .any(|suffix| name.ends_with(suffix))
    {
        Destination::LocalNetwork
    } else {
        Destination::Internet
    }
}

/// A rule's web-address pattern, matched against the parts of a parsed URL.
///
/// Shape: `scheme://host[:port][/path][?query]`.
///
/// - **scheme**: a literal scheme (`https`, compared without case) or `*`, which means
///   `http` or `https` (nothing else).
/// - **host**: matched against the URL's host only; it never reaches into the user name,
///   port, path, query or fragment. Both sides are compared as `url` parses them: lower
///   case, international names in punycode, IPv4 in any spelling as its address, IPv6 as
///   its address (an IPv4-mapped `[::ffff:a.b.c.d]` counts as `a.b.c.d`), trailing dots
///   removed.
///   - `example.com`, `127.0.0.1`, `[::1]`: exactly that host.
///   - `*.example.com`: `example.com` and every name under it (`a.example.com`,
///     `a.b.example.com`), but not `evilexample.com` nor `example.com.evil.net`. The bare
///     name is included so that a deny rule for a site cannot be stepped around by leaving
///     off `www.`.
///   - `*`: any host.
///
///   No other `*` is allowed in a host.
/// - **port**: `:8080` matches that port (a URL without a port has its scheme's default, so
///   `https://example.com:443/` and `https://example.com/` are the same); `:*` or no port
///   matches any port. No port means any port so that a deny rule for a host holds on every
///   port; to allow only one program on a host, give its port.
/// - **path**: none, or `/*` at the end, means any path below; otherwise a glob over the URL's
///   path in which `*` matches within one segment (not across `/`) and `**` as a whole segment
///   matches any number of segments. Compared case-sensitively, after the same normalisation
///   on both sides (dot segments removed, percent-escapes of unreserved characters decoded as
///   RFC 3986 §6.2.2 allows, other escapes in upper case), so `/%61dmin` is `/admin`.
/// - **query**: ignored unless the pattern has a `?`; then the URL's whole query (empty when it
///   has none) must match the glob after `?`, in which `*` matches anything. `?` alone means
///   no query.
/// - **fragment** (`#…`): never sent to a server, never matched; a pattern containing `#` is
///   an error.
///
/// Examples (✓ matches, ✗ does not):
///
/// | pattern | URL | |
/// |---|---|---|
/// | `http://*.example.com/*` | `http://a.b.example.com/x/y` | ✓ |
/// | `http://*.example.com/*` | `http://127.0.0.1:8080/leak?x#.example.com/` | ✗ |
/// | `http://*.example.com/*` | `http://a.example.com@evil.net/` | ✗ (the host is `evil.net`) |
/// | `*://example.com` | `https://EXAMPLE.com./docs?q=1` | ✓ |
/// | `https://example.com/docs/*` | `https://example.com/docs/a/b` | ✓ |
/// | `https://example.com/docs/*.html` | `https://example.com/docs/a/b.html` | ✗ (one segment) |
/// | `https://example.com/api?key=*` | `https://example.com/api` | ✗ (no query) |
/// | `http://localhost:3000/*` | `http://localhost:3001/` | ✗ |
/// | `http://127.0.0.1/*` | `http://2130706433/` | ✓ |
#[derive(Debug, Clone)]
pub struct UrlPattern {
    text: String,
    schemes: Schemes,
    host: HostPattern,
    port: Option<u16>,
    path: Option<GlobMatcher>,
    query: Option<GlobMatcher>,
}

#[derive(Debug, Clone)]
enum Schemes {
    Web,
    Exactly(String),
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum HostPattern {
    Any,
    Exactly(HostKey),
    /// The normalised name and every name under it.
    NameAndBelow(String),
}

/// A host as compared: a name (lower case, punycode, no trailing dot) or an IP address
/// (IPv4-mapped IPv6 as IPv4).
#[derive(Debug, Clone, PartialEq, Eq)]
enum HostKey {
    Name(String),
    Ip(IpAddr),
}

impl HostKey {
    fn of(host: Host<&str>) -> HostKey {
        match host {
            Host::Domain(name) => HostKey::Name(name.trim_end_matches('.').to_ascii_lowercase()),
            Host::Ipv4(ip) => HostKey::Ip(IpAddr::V4(ip)),
            Host::Ipv6(ip) => HostKey::Ip(ip.to_ipv4_mapped().map_or(IpAddr::V6(ip), IpAddr::V4)),
        }
    }
}

impl UrlPattern {
    /// Parses a pattern of the shape described on [`UrlPattern`].
    ///
    /// # Errors
    /// A sentence saying what is wrong: no `scheme://`, an empty or malformed host, a `*`
    /// inside a host, a port that is not a number or `*`, a `#`, user info (`@`), or a path
    /// glob that does not compile.
    pub fn parse(pattern: &str) -> Result<UrlPattern, String> {
        let bad = |why: &str| format!("The address pattern {pattern:?} {why}");
        if pattern.contains('#') {
            return Err(bad(
                "contains #; the part after # is never sent to a site, so rules cannot match it.",
            ));
        }
        if pattern.chars().any(char::is_whitespace) {
            return Err(bad("contains a space; addresses have none."));
        }
        let Some((scheme, rest)) = pattern.split_once("://") else {
            return Err(bad(
                "does not start with a scheme such as https:// or *:// (for http and https).",
            ));
        };
        let schemes = if scheme == "*" {
            Schemes::Web
        } else if scheme
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic())
            && scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
        {
            Schemes::Exactly(scheme.to_ascii_lowercase())
        } else {
            return Err(bad("has a scheme that is neither a name like https nor *."));
        };

        let authority_end = rest.find(['/', '?']).unwrap_or(rest.len());
        let (authority, after) = rest.split_at(authority_end);
        if authority.contains('\\') {
            return Err(bad("has a \\ in its host; web addresses read it as /."));
        }
        if authority.contains('@') {
            return Err(bad(
                "contains a user name (@); rules match the host, which comes after the @.",
            ));
        }
        let (host, port) = split_host_port(authority).map_err(|why| bad(&why))?;
        let host = parse_host_pattern(host).map_err(|why| bad(&why))?;
        let port = match port {
            None | Some("*") => None,
            Some(digits) => Some(
                digits
                    .parse::<u16>()
                    .map_err(|_| bad("has a port that is neither a number up to 65535 nor *."))?,
            ),
        };

        let (path, query) = match after.split_once('?') {
            Some((path, query)) => (path, Some(query)),
            None => (after, None),
        };
        let path = if path.is_empty() || path == "/*" {
            None
        } else {
            Some(path_glob(path).map_err(|why| bad(&why))?)
        };
        let query = query
            .map(|query| query_glob(query).map_err(|why| bad(&why)))
            .transpose()?;
        Ok(UrlPattern {
            text: pattern.to_owned(),
            schemes,
            host,
            port,
            path,
            query,
        })
    }

    /// Whether `url` fits this pattern (see [`UrlPattern`] for the rules).
    pub fn matches(&self, url: &Url) -> bool {
        let scheme_fits = match &self.schemes {
            Schemes::Web => matches!(url.scheme(), "http" | "https"),
            Schemes::Exactly(scheme) => url.scheme() == scheme,
        };
        if !scheme_fits {
            return false;
        }
        let host_fits = match (&self.host, url.host().map(HostKey::of)) {
            (HostPattern::Any, _) => true,
            (_, None) => false,
            (HostPattern::Exactly(want), Some(have)) => *want == have,
            (HostPattern::NameAndBelow(suffix), Some(HostKey::Name(name))) => {
                name == *suffix
                    || name
                        .strip_suffix(suffix.as_str())
                        .is_some_and(|head| head.ends_with('.') && head.len() > 1)
            }
            (HostPattern::NameAndBelow(_), Some(HostKey::Ip(_))) => false,
        };
        if !host_fits {
            return false;
        }
        if let Some(port) = self.port {
            if url.port_or_known_default() != Some(port) {
                return false;
            }
        }
        if let Some(path) = &self.path {
            if !path.is_match(normalise_escapes(url.path())) {
                return false;
            }
        }
        match &self.query {
            None => true,
            Some(query) => query.is_match(normalise_escapes(url.query().unwrap_or(""))),
        }
    }

    /// The pattern as it was written.
    pub fn as_str(&self) -> &str {
        &self.text
    }
}

impl fmt::Display for UrlPattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl FromStr for UrlPattern {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        UrlPattern::parse(s)
    }
}

/// `host[:port]`, the host possibly a bracketed IPv6 address.
fn split_host_port(authority: &str) -> Result<(&str, Option<&str>), String> {
    let (host, rest) = if authority.starts_with('[') {
        let end = authority
            .find(']')
            .ok_or("has a [ without a closing ] in its host.")?;
        authority.split_at(end + 1)
    } else {
        let end = authority.find(':').unwrap_or(authority.len());
        authority.split_at(end)
    };
    match rest.strip_prefix(':') {
        None if rest.is_empty() => Ok((host, None)),
        None => Err("has something after its host that is not a :port.".to_owned()),
        Some(port) => Ok((host, Some(port))),
    }
}

fn parse_host_pattern(host: &str) -> Result<HostPattern, String> {
    if host == "*" {
        return Ok(HostPattern::Any);
    }
    let (wildcard, literal) = match host.strip_prefix("*.") {
        Some(suffix) => (true, suffix),
        None => (false, host),
    };
    if literal.is_empty() {
        return Err("has no host.".to_owned());
    }
    if literal.contains('*') {
        return Err(
            "has a * inside its host; only a whole host * or a leading *. is allowed.".to_owned(),
        );
    }
    // The same parser as the URLs it will be compared with.
    let parsed = Url::parse(&format!("http://{literal}/"))
        .map_err(|e| format!("has a host that is not valid ({e})."))?;
    let key = parsed
        .host()
        .map(HostKey::of)
        .ok_or("has no host.".to_owned())?;
    match (wildcard, key) {
        (false, key) => Ok(HostPattern::Exactly(key)),
        (true, HostKey::Name(name)) if !name.is_empty() => Ok(HostPattern::NameAndBelow(name)),
        (true, _) => Err("puts *. in front of an IP address; give the address alone.".to_owned()),
    }
}

/// A path glob: `*` within a segment, `**` across segments, `/*` at the end any path below.
fn path_glob(path: &str) -> Result<GlobMatcher, String> {
    // Normalised like the URLs' paths (percent-encoding, dot segments); `*` is kept as is.
    let parsed = Url::parse(&format!("http://host{path}"))
        .map_err(|e| format!("has a path that is not valid ({e})."))?;
    let mut path = normalise_escapes(parsed.path());
    if path.ends_with("/*") && !path.ends_with("**/*") {
        path.push('*');
    }
    glob(&path, true)
}

fn query_glob(query: &str) -> Result<GlobMatcher, String> {
    let parsed = Url::parse(&format!("http://host/?{query}"))
        .map_err(|e| format!("has a query that is not valid ({e})."))?;
    glob(&normalise_escapes(parsed.query().unwrap_or("")), false)
}

/// Compiles text in which only `*` (and `**`) are special; every other character is literal.
fn glob(text: &str, within_segments: bool) -> Result<GlobMatcher, String> {
    let mut escaped = String::with_capacity(text.len() * 2);
    for (i, piece) in text.split('*').enumerate() {
        if i > 0 {
            escaped.push('*');
        }
        escaped.push_str(&globset::escape(piece));
    }
    GlobBuilder::new(&escaped)
        .literal_separator(within_segments)
        .backslash_escape(true)
        .build()
        .map(|g| g.compile_matcher())
        .map_err(|e| format!("has a glob that is not valid ({e})."))
}

/// Decodes percent-escapes of unreserved characters (`A–Z a–z 0–9 - . _ ~`, which mean the
/// same either way, RFC 3986 §6.2.2.2) and writes the hex digits of the others in upper case.
fn normalise_escapes(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < bytes.len() {
        let escape = (bytes[i] == b'%')
            .then(|| bytes.get(i + 1..i + 3))
            .flatten()
            .and_then(|hex| std::str::from_utf8(hex).ok())
            .and_then(|hex| u8::from_str_radix(hex, 16).ok());
        match escape {
            Some(byte)
                if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~') =>
            {
                out.push(char::from(byte));
                i += 3;
            }
            Some(byte) => {
                out.push_str(&format!("%{byte:02X}"));
                i += 3;
            }
            None => {
                let ch = text[i..].chars().next().unwrap_or('\u{fffd}');
                out.push(ch);
                i += ch.len_utf8().max(1);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use pretty_assertions::assert_eq;

    fn url(text: &str) -> Url {
        Url::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    fn fits(pattern: &str, address: &str) -> bool {
        UrlPattern::parse(pattern)
            .unwrap_or_else(|e| panic!("{e}"))
            .matches(&url(address))
    }

    /// Every (URL, whether it matches) for one pattern, to compare as a whole.
    fn table(pattern: &str, cases: &[(&str, bool)]) {
        let got: Vec<(&str, bool)> = cases.iter().map(|(u, _)| (*u, fits(pattern, u))).collect();
        assert_eq!(got, cases.to_vec(), "pattern {pattern}");
    }

    #[test]
    fn a_wildcard_host_matches_the_host_and_nothing_else() {
        table(
            "http://*.example.com/*",
            &[
                ("http://a.example.com/", true),
                ("http://a.b.example.com/x/y?z#w", true),
                ("http://example.com/", true),
                ("HTTP://A.EXAMPLE.COM/x", true),
                ("http://a.example.com./x", true),
                ("http://a.example.com:8080/x", true),
                ("http://127.0.0.1:8080/leak?x#.example.com/", false),
                ("http://example.com.evil.net/", false),
                ("http://evilexample.com/", false),
                ("http://evil.net/?.example.com", false),
                ("http://evil.net/#.example.com", false),
                ("http://evil.net/.example.com", false),
                ("http://a.example.com@evil.net/", false),
                ("http://user:a.example.com@evil.net/", false),
                ("http://evil.net\\.example.com/", false),
                ("https://a.example.com/", false),
                ("ftp://a.example.com/", false),
            ],
        );
    }

    #[test]
    fn user_info_never_counts_as_the_host() {
        table(
            "*://example.com/*",
            &[
                ("http://example.com@127.0.0.1/", false),
                ("http://example.com:pw@127.0.0.1/", false),
                ("http://me@example.com/", true),
            ],
        );
        assert_eq!(
            url("http://example.com@127.0.0.1/").host_str(),
            Some("127.0.0.1")
        );
        assert_eq!(
            destination(&url("http://example.com@127.0.0.1/")),
            Destination::ThisComputer
        );
    }

    #[test]
    fn hosts_compare_after_idna_and_case_folding() {
        table(
            "https://bücher.example/*",
            &[
                ("https://xn--bcher-kva.example/", true),
                ("https://BÜCHER.example/", true),
                ("https://bucher.example/", false),
            ],
        );
        table(
            "https://*.xn--bcher-kva.example",
            &[
                ("https://www.bücher.example/a", true),
                ("https://www.bucher.example/", false),
            ],
        );
        // A look-alike with a Cyrillic "е" is a different host.
        table("https://example.com", &[("https://еxample.com/", false)]);
    }

    #[test]
    fn ip_addresses_compare_as_addresses_in_any_spelling() {
        table(
            "http://127.0.0.1/*",
            &[
                ("http://127.0.0.1/", true),
                ("http://2130706433/", true),
                ("http://0x7f.1/", true),
                ("http://0177.0.0.1/", true),
                ("http://127.1/", true),
                ("http://127.0.0.1./", true),
                ("http://[::ffff:127.0.0.1]/", true),
                ("http://[::ffff:7f00:1]/x", true),
                ("http://127.0.0.2/", false),
                ("http://[::1]/", false),
            ],
        );
        table(
            "http://[::1]:8080",
            &[("http://[0:0::1]:8080/", true), ("http://[::1]/", false)],
        );
    }

    #[test]
    fn a_host_star_alone_matches_any_host_but_keeps_scheme_port_and_path() {
        table(
            "*://*:8080/api/*",
            &[
                ("http://anything.example/api/x", false),
                ("http://anything.example:8080/api/x", true),
                ("https://[::1]:8080/api/x/y", true),
                ("ws://a:8080/api/x", false),
                ("http://a:8080/other", false),
            ],
        );
    }

    #[test]
    fn ports_are_the_urls_own_or_their_schemes_default() {
        table(
            "https://example.com:443/*",
            &[
                ("https://example.com/", true),
                ("https://example.com:443/", true),
                ("https://example.com:444/", false),
            ],
        );
        table(
            "http://localhost:3000",
            &[
                ("http://localhost:3000/", true),
                ("http://localhost:3001/", false),
                ("http://localhost/", false),
            ],
        );
        // No port: every port, so a deny rule for the host cannot be stepped around.
        table(
            "http://evil.net",
            &[("http://evil.net:8080/", true), ("http://evil.net/", true)],
        );
    }

    #[test]
    fn paths_glob_by_segment_and_a_final_star_means_anything_below() {
        table(
            "https://example.com/docs/*",
            &[
                ("https://example.com/docs/", true),
                ("https://example.com/docs/a", true),
                ("https://example.com/docs/a/b.html", true),
                ("https://example.com/docs", false),
                ("https://example.com/docsx/a", false),
                ("https://example.com/other/../docs/a", true),
                ("https://example.com/docs/../secret", false),
                ("https://example.com/docs/%2e%2e/secret", false),
                ("https://example.com/%64ocs/a", true),
                ("https://example.com/DOCS/a", false),
            ],
        );
        table(
            "https://example.com/docs/*.html",
            &[
                ("https://example.com/docs/a.html", true),
                ("https://example.com/docs/a/b.html", false),
                ("https://example.com/docs/a.html?x", true),
            ],
        );
        table(
            "https://example.com/**/x",
            &[
                ("https://example.com/a/b/x", true),
                ("https://example.com/x", true),
            ],
        );
        table(
            "https://example.com/exact",
            &[
                ("https://example.com/exact", true),
                ("https://example.com/exact/", false),
            ],
        );
        // Characters a glob would treat specially are literal here.
        table(
            "https://example.com/[a]{b}",
            &[
                ("https://example.com/[a]%7Bb%7D", true),
                ("https://example.com/a", false),
            ],
        );
        table(
            "http://example.com",
            &[("http://example.com/any/path?q", true)],
        );
    }

    #[test]
    fn the_query_counts_only_when_the_pattern_has_one() {
        table(
            "https://example.com/api?key=*",
            &[
                ("https://example.com/api?key=1", true),
                ("https://example.com/api?key=1&x=/y", true),
                ("https://example.com/api", false),
                ("https://example.com/api?other=1", false),
            ],
        );
        table(
            "https://example.com/api?",
            &[
                ("https://example.com/api", true),
                ("https://example.com/api?x", false),
            ],
        );
        table(
            "https://example.com/api",
            &[("https://example.com/api?anything#at-all", true)],
        );
    }

    #[test]
    fn bad_patterns_are_refused_with_a_reason() {
        for bad in [
            "example.com/*",
            "http://",
            "http:///x",
            "http://exa*mple.com/",
            "http://*example.com/",
            "http://a.*.com/",
            "http://*.127.0.0.1/",
            "http://example.com:http/",
            "http://example.com:99999/",
            "http://example.com/#x",
            "http://user@example.com/",
            "ht tp://example.com/",
            "1http://example.com/",
            "http://[::1/",
            "http://[::1]x/",
            "http://exa mple.com/",
            "http://evil.net\\.example.com/*",
        ] {
            assert!(UrlPattern::parse(bad).is_err(), "{bad} was accepted");
        }
        let err = UrlPattern::parse("http://exa*mple.com/").unwrap_err();
        assert_eq!(
            err,
            "The address pattern \"http://exa*mple.com/\" has a * inside its host; only a whole \
             host * or a leading *. is allowed."
        );
    }

    #[test]
    fn a_pattern_shows_as_written() {
        let pattern: UrlPattern = "*://*.Example.com/*".parse().unwrap();
        assert_eq!(pattern.to_string(), "*://*.Example.com/*");
        assert_eq!(pattern.as_str(), "*://*.Example.com/*");
    }

    #[test]
    fn destinations_name_where_an_address_is() {
        use Destination::{Internet, LocalNetwork, ThisComputer};
        let cases = [
            ("http://127.0.0.1:8080/", ThisComputer),
            ("http://127.9.9.9/", ThisComputer),
            ("http://localhost/", ThisComputer),
            ("http://LOCALHOST./", ThisComputer),
            ("http://localhost./", ThisComputer),
            ("http://foo.localhost/", ThisComputer),
            ("http://0.0.0.0/", ThisComputer),
            ("http://0/", ThisComputer),
            ("http://[::1]/", ThisComputer),
            ("http://[::]/", ThisComputer),
            ("http://[::ffff:127.0.0.1]/", ThisComputer),
            ("http://[::127.0.0.1]/", ThisComputer),
            ("http://[64:ff9b::7f00:1]/", ThisComputer),
            ("http://2130706433/", ThisComputer),
            ("http://0x7f.1/", ThisComputer),
            ("http://0177.0.0.1/", ThisComputer),
            ("http://127.0.0.1./", ThisComputer),
            ("http://１２７.０.０.１/", ThisComputer),
            ("http://example.com@127.0.0.1/", ThisComputer),
            ("file:///etc/passwd", ThisComputer),
            ("http://169.254.169.254/latest/meta-data", LocalNetwork),
            ("http://10.0.0.1/", LocalNetwork),
            ("http://172.16.0.1/", LocalNetwork),
            ("http://172.31.255.255/", LocalNetwork),
            ("http://192.168.1.1/", LocalNetwork),
            ("http://100.64.0.1/", LocalNetwork),
            ("http://100.127.255.255/", LocalNetwork),
            ("http://3232235777/", LocalNetwork),
            ("http://[fd00::1]/", LocalNetwork),
            ("http://[fe80::1]/", LocalNetwork),
            ("http://[::ffff:10.0.0.1]/", LocalNetwork),
            ("http://[::ffff:169.254.169.254]/", LocalNetwork),
            ("http://printer.local/", LocalNetwork),
            ("http://printer.local./", LocalNetwork),
            ("http://intranet/", LocalNetwork),
            ("http://nas.home.arpa/", LocalNetwork),
            ("http://metadata.google.internal/", LocalNetwork),
            ("http://255.255.255.255/", LocalNetwork),
            ("https://example.com/", Internet),
            ("http://172.32.0.1/", Internet),
            ("http://100.128.0.1/", Internet),
            ("http://8.8.8.8/", Internet),
            ("http://[2606:4700::1111]/", Internet),
            ("http://localhost.example.com/", Internet),
            ("http://127.0.0.1.nip.io/", Internet),
            ("http://xn--bcher-kva.example/", Internet),
        ];
        let got: Vec<(&str, Destination)> = cases
            .iter()
            .map(|(u, _)| (*u, destination(&url(u))))
            .collect();
        assert_eq!(got, cases.to_vec());
    }

    #[test]
    fn destinations_of_resolved_addresses() {
        use Destination::{Internet, LocalNetwork, ThisComputer};
        let cases: Vec<(IpAddr, Destination)> = [
            ("127.0.0.1", ThisComputer),
            ("::1", ThisComputer),
            ("::ffff:127.0.0.1", ThisComputer),
            ("192.168.0.10", LocalNetwork),
            ("fe80::1", LocalNetwork),
            ("ff02::1", LocalNetwork),
            ("93.184.216.34", Internet),
            ("2001:db8::1", Internet),
        ]
        .into_iter()
        .map(|(ip, d)| (ip.parse().unwrap(), d))
        .collect();
        let got: Vec<(IpAddr, Destination)> = cases
            .iter()
            .map(|(ip, _)| (*ip, Destination::of_ip(*ip)))
            .collect();
        assert_eq!(got, cases);
    }
}
