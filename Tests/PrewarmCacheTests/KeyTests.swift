import Testing

@testable import PrewarmCache

@Suite struct CacheKeyFilterTests {
    @Test(arguments: [
        // (dropQuery, params, url, key)
        (false, [String](), "https://x/a.jpg", "https://x/a.jpg"),
        (false, [], "https://x/a.jpg?w=1#top", "https://x/a.jpg?w=1"),
        (false, [], "https://x/a.jpg#top", "https://x/a.jpg"),
        (true, [], "https://x/a.jpg?sig=1&w=2", "https://x/a.jpg"),
        (true, [], "https://x/a.jpg", "https://x/a.jpg"),
        (
            false, ["sig", "Expires"], "https://x/a.jpg?w=1&sig=abc&h=2&Expires=9",
            "https://x/a.jpg?w=1&h=2"
        ),
        (false, ["sig", "Expires"], "https://x/a.jpg?sig=abc&Expires=9#f", "https://x/a.jpg"),
        (false, ["sig"], "https://x/a.jpg?SIG=1&sig", "https://x/a.jpg?SIG=1"),
        (false, ["token"], "https://x/a.jpg?b=2&a=1", "https://x/a.jpg?b=2&a=1"),
    ])
    func keys(dropQuery: Bool, params: [String], url: String, key: String) {
        #expect(CacheKeyFilter(dropQuery: dropQuery, dropQueryParams: params).key(for: url) == key)
    }
}

@Suite struct VariantKeyTests {
    @Test(arguments: [
        ("https://x/a.jpg", "https://x/a-w320h320-cover-webp-q80.jpg"),
        ("https://x/a", "https://x/a-w320h320-cover-webp-q80"),
        ("https://x/a.jpg?v=2&s=a.png", "https://x/a-w320h320-cover-webp-q80.jpg?v=2&s=a.png"),
        ("https://x/a?v=2", "https://x/a-w320h320-cover-webp-q80?v=2"),
        ("https://x/img.v2/photo", "https://x/img.v2/photo-w320h320-cover-webp-q80"),
        (
            "https://x/img.v2/photo.final.png",
            "https://x/img.v2/photo.final-w320h320-cover-webp-q80.png"
        ),
        ("https://cdn.example.com", "https://cdn.example.com-w320h320-cover-webp-q80"),
        ("https://cdn.example.com/", "https://cdn.example.com/-w320h320-cover-webp-q80"),
        ("https://x/.hidden", "https://x/.hidden-w320h320-cover-webp-q80"),
        ("https://x/a.", "https://x/a.-w320h320-cover-webp-q80"),
        ("/local/a.gif", "/local/a-w320h320-cover-webp-q80.gif"),
    ])
    func keys(base: String, expected: String) {
        #expect(VariantKey.key(base: base, description: "w320h320-cover-webp-q80") == expected)
    }
}
