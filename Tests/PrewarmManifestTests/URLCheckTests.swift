@testable import PrewarmManifest
import Testing

@Suite struct URLCheckTests {
    @Test(arguments: [
        "http://x.test/", "https://x.test", "HTTPS://X.TEST/A.JPG", "https://user:pass@x.test:8443/a.jpg?q=1#f",
        "http://127.0.0.1:8080/a", "http://[::1]:80/a", "https://x.test/a%20b.jpg", "https://bücher.test/a",
    ])
    func acceptsHTTPURLs(_ url: String) {
        #expect(URLCheck.problem(url) == nil)
    }

    @Test(arguments: [
        ("", "is empty"),
        ("x.test/a.jpg", "has no scheme; write it as http://host/path or https://host/path"),
        ("ftp://x.test/a", "has the scheme 'ftp'; only http and https are supported"),
        ("https:/x.test/a", "must start with https://"),
        ("https:///a", "has no host"),
        ("https://x.test:99999/a", "has an invalid port"),
        ("https://x.test:8o/a", "has an invalid port"),
        ("https://[::1/a", "has an unclosed '[' in its host"),
        ("https://x.test/a b", "contains a space; encode it as %20"),
        ("https://x.test/a\u{7}", "contains a control character"),
        ("https://x.test/<a>", "contains the character '<', which must be percent-encoded"),
        ("https://x.test/100%", "has a '%' not followed by two hex digits; write a literal % as %25"),
        ("https://x!y.test/", "has the character '!' in its host"),
    ])
    func refusesOthers(_ url: String, _ problem: String) {
        #expect(URLCheck.problem(url) == problem)
    }
}
