import PrewarmCore
import PrewarmManifest
import Testing

/// The manifest from SPEC.md, verbatim, with its environment variables supplied.
@Suite struct SpecExampleTests {
    static let specManifest = """
        version: 1
        job: catalog                      # name in reports and metrics; defaults to the file name
        cache:
          path: /var/cache/prewarm
          max_age: 7d                     # entries older than this are stale (SDImageCacheConfig.maxDiskAge)
          max_size: 20GiB                 # 0 = unlimited (maxDiskSize); trimmed oldest-access first
          key:
            drop_query: false             # true: the query string is not part of the cache key
            drop_query_params: [sig, Expires, token]   # signed-URL parts left out of the key
        network:
          deny: [loopback, private]       # link-local (cloud metadata) is always refused; add more here
        defaults:                         # every group inherits these; a group may override any of them
          concurrency: 3                  # URLs in flight for this job (SDWebImagePrefetcher default)
          per_host: 6                     # connections per host
          rate: 0                         # requests per second per host, 0 = unlimited
          order: fifo                     # fifo | lifo, within one priority
          timeout: 15s                    # per attempt (SDWebImageDownloader default)
          retries: 2                      # extra attempts for transient failures
          backoff: 1s                     # first retry delay, doubled each time, jittered; Retry-After wins
          failed_ttl: 24h                 # how long a permanent failure stays blacklisted
          max_bytes: 50MiB                # larger bodies fail as too_large
          max_pixels: 100M                # larger images fail as too_many_pixels (decompression bombs)
          headers: { Accept: "image/webp,image/*;q=0.8", Authorization: "Bearer ${CDN_TOKEN}" }
          auth: { username: warm, password: "${ORIGIN_PASSWORD}" }
          options: []                     # see Options
          store_original: true
          variants:
            - name: thumb
              width: 320                  # width and/or height; the missing one keeps the aspect ratio
              height: 320
              fit: cover                  # contain (fit inside) | cover (fill, centre crop) | fill (stretch)
              format: webp                # jpeg | png | webp | original | auto (animated → webp, alpha → png, else jpeg)
              quality: 80
              enlarge: false              # never upscale unless true
        groups:
          - name: home
            priority: high                # very_high | high | normal | low | very_low
            urls: [https://cdn.example.com/hero.jpg]
          - name: catalog
            priority: low
            url_file: catalog.txt         # one URL per line, '#' comments; relative to the manifest
          - name: pages
            url_template: "https://cdn.example.com/p/{n}/{size}.jpg"
            values: { n: "1..500", size: [s, m, l] }
        """

    @Test func everyFieldOfTheSpecExample() throws {
        let folder = try TempFolder()
        try folder.write("catalog.txt", "# catalog\nhttps://cdn.example.com/c/1.jpg\n\nhttps://cdn.example.com/c/2.jpg\n")
        let loaded = try manifest(
            Self.specManifest, name: "spec.yaml",
            environment: ["CDN_TOKEN": "t0k3n", "ORIGIN_PASSWORD": "hunter2"], in: folder)

        #expect(loaded.file == folder.path + "/spec.yaml")
        #expect(loaded.job == "catalog")
        #expect(loaded.cache.path == "/var/cache/prewarm")
        #expect(loaded.cache.maxAge == Double(7 * 86_400))
        #expect(loaded.cache.maxSize == 20 * 1_073_741_824)
        #expect(loaded.cache.key.dropQuery == false)
        #expect(loaded.cache.key.dropQueryParams == ["sig", "Expires", "token"])
        #expect(loaded.network.deny == [.loopback, .privateRange])
        #expect(loaded.concurrency == 3)
        #expect(loaded.groups.map(\.name) == ["home", "catalog", "pages"])
        #expect(loaded.groups.map(\.priority) == [.high, .low, .normal])
        #expect(loaded.groups.map(\.line) == [36, 39, 42])

        let settings = loaded.groups[0].settings
        #expect(settings.concurrency == nil)
        #expect(settings.perHost == 6)
        #expect(settings.rate == 0)
        #expect(settings.order == .fifo)
        #expect(settings.timeout == 15)
        #expect(settings.retries == 2)
        #expect(settings.backoff == 1)
        #expect(settings.failedTTL == 86_400)
        #expect(settings.maxBytes == 50 * 1_048_576)
        #expect(settings.maxPixels == 100_000_000)
        #expect(settings.headers == [
            Header(name: "Accept", value: "image/webp,image/*;q=0.8", isSecret: false),
            Header(name: "Authorization", value: "Bearer t0k3n", isSecret: true),
        ])
        #expect(settings.auth == BasicAuth(username: "warm", password: "hunter2"))
        #expect(settings.options.isEmpty)
        #expect(settings.storeOriginal)
        #expect(settings.variants == [
            VariantSpec(name: "thumb", width: 320, height: 320, fit: .cover, format: .webp, quality: 80, enlarge: false)
        ])
        // Every group inherits the same defaults.
        #expect(loaded.groups.allSatisfy { $0.settings == settings })

        let home = loaded.groups[0].source
        #expect(home.count == 1)
        #expect(allURLs(home) == ["https://cdn.example.com/hero.jpg"])

        guard case .file(let path, let count) = loaded.groups[1].source else {
            Issue.record("catalog should be a url_file source")
            return
        }
        #expect(path == folder.path + "/catalog.txt")
        #expect(count == 2)
        #expect(allURLs(loaded.groups[1].source) == ["https://cdn.example.com/c/1.jpg", "https://cdn.example.com/c/2.jpg"])

        let pages = loaded.groups[2].source
        #expect(pages.count == 1_500)
        let pageURLs = allURLs(pages)
        #expect(pageURLs.count == 1_500)
        #expect(Array(pageURLs.prefix(4)) == [
            "https://cdn.example.com/p/1/s.jpg", "https://cdn.example.com/p/1/m.jpg",
            "https://cdn.example.com/p/1/l.jpg", "https://cdn.example.com/p/2/s.jpg",
        ])
        #expect(pageURLs.last == "https://cdn.example.com/p/500/l.jpg")
    }
}
