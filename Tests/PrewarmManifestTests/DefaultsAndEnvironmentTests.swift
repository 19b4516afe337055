import PrewarmCore
import PrewarmManifest
import Testing

@Suite struct DefaultsAndEnvironmentTests {
    @Test func groupsInheritDefaultsAndOverrideThem() throws {
        let folder = try TempFolder()
        let loaded = try manifest(
            """
            version: 1
            defaults:
              concurrency: 8
              timeout: 30s
              retries: 5
              priority: low
              headers: { Accept: image/webp }
              options: [refresh_cached]
              variants: [{ name: small, width: 100 }]
            groups:
              - name: inherits
                urls: [https://x.test/a.jpg]
              - name: overrides
                urls: [https://x.test/b.jpg]
                concurrency: 2
                timeout: 500ms
                priority: very_high
                headers: { Referer: https://x.test/ }
                options: [low_priority, avoid_decode]
                variants: []
                store_original: false
              - name: raised
                urls: [https://x.test/c.jpg]
                options: [high_priority]
            """, name: "shop.yaml", in: folder)
        #expect(loaded.job == "shop")
        #expect(loaded.concurrency == 8)
        let inherits = loaded.groups[0]
        #expect(inherits.settings.concurrency == nil)
        #expect(inherits.settings.timeout == 30)
        #expect(inherits.settings.retries == 5)
        #expect(inherits.priority == .low)
        #expect(inherits.settings.headers == [Header(name: "Accept", value: "image/webp")])
        #expect(inherits.settings.options == [.refreshCached])
        #expect(inherits.settings.variants == [VariantSpec(name: "small", width: 100)])
        #expect(inherits.settings.storeOriginal)

        let overrides = loaded.groups[1]
        #expect(overrides.settings.concurrency == 2)
        #expect(overrides.settings.timeout == 0.5)
        #expect(overrides.settings.retries == 5)
        #expect(overrides.priority == .high)  // very_high lowered one step by low_priority
        #expect(overrides.settings.headers == [Header(name: "Referer", value: "https://x.test/")])
        #expect(overrides.settings.options == [.lowPriority, .avoidDecode])
        #expect(overrides.settings.variants.isEmpty)
        #expect(!overrides.settings.storeOriginal)

        #expect(loaded.groups[2].priority == .normal)  // low raised one step
    }

    @Test func environmentVariablesAreSubstitutedAndSecretsMarked() throws {
        let folder = try TempFolder()
        let environment = ["HOST": "cdn.test", "TOKEN": "s3cret", "PASS": "pw", "EMPTY": ""]
        let loaded = try manifest(
            """
            version: 1
            job: ${HOST}-warm
            cache: { path: "/srv/${HOST}" }
            defaults:
              headers:
                Authorization: "Bearer ${TOKEN}"
                X-Plain: literal $$ and $${NOT_A_VAR}
                X-Fallback: ${EMPTY:-fallback}
              auth: { username: warm, password: "${PASS}" }
            groups:
              - name: g
                urls: ["https://${HOST}/a.jpg"]
            """, environment: environment, in: folder)
        #expect(loaded.job == "cdn.test-warm")
        #expect(loaded.cache.path == "/srv/cdn.test")
        #expect(loaded.groups[0].settings.headers == [
            Header(name: "Authorization", value: "Bearer s3cret", isSecret: true),
            Header(name: "X-Plain", value: "literal $$ and ${NOT_A_VAR}", isSecret: false),
            Header(name: "X-Fallback", value: "fallback", isSecret: true),
        ])
        #expect(loaded.groups[0].settings.auth == BasicAuth(username: "warm", password: "pw"))
        #expect(allURLs(loaded.groups[0].source) == ["https://cdn.test/a.jpg"])
    }

    @Test func unsetVariableIsAnErrorNamingIt() throws {
        let folder = try TempFolder()
        let found = try issues(
            """
            version: 1
            groups:
              - name: g
                urls: ["https://${CDN_HOST}/a.jpg"]
                headers: { Authorization: "Bearer ${CDN_TOKEN" }
            """, in: folder)
        #expect(found.map { "\($0.line):\($0.column): \($0.message)" } == [
            "4:12: urls: environment variable 'CDN_HOST' is not set; export it, or write ${CDN_HOST:-default}",
            "5:31: header 'Authorization': '${' is not closed with '}'; write $${ for a literal '${'",
        ])
    }

    @Test func relativeCachePathResolvesAgainstTheManifestFolder() throws {
        let folder = try TempFolder()
        let loaded = try manifest(
            "version: 1\ncache: { path: cache-dir, max_size: 0 }\ngroups: [{ name: g, urls: ['https://x.test/a'] }]\n",
            name: "sub/m.yaml", in: folder)
        #expect(loaded.cache.path == folder.path + "/sub/cache-dir")
        #expect(loaded.cache.maxSize == 0)
        #expect(loaded.cache.maxAge == nil)
    }
}
