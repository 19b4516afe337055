import Foundation
import PrewarmCache
import PrewarmCodec
import PrewarmCore
import PrewarmLoader
import PrewarmManifest

/// The flow of one URL (SDWebImageManager's job, for a worker):
/// cache query → blacklist → load (with retries) → sniff → decode once → variants → atomic store.
///
/// It owns no state of its own beyond its injected parts, so any number of URLs run through it
/// at once; the scheduler decides how many.
final class URLPipeline: Sendable {
    let loader: HTTPLoader
    let decoder: DecodePool
    /// Called when a cache write fails for a reason no retry can fix (disk full, not writable):
    /// the run stops and exits 3.
    let onFatal: @Sendable (CacheError) -> Void

    init(loader: HTTPLoader, decoder: DecodePool, onFatal: @escaping @Sendable (CacheError) -> Void) {
        self.loader = loader
        self.decoder = decoder
        self.onFatal = onFatal
    }

    /// What the cache alone says about a URL.
    enum CacheCheck {
        /// The cache decided: `cached`, or `missing` under `from_cache_only`.
        case answered(URLResult)
        /// The URL must be fetched (or revalidated); what the cache holds for it.
        case fetch(CacheState)
    }

    /// The skip path, answered synchronously without a task. Costs one stat per cache entry;
    /// reads metadata only when `wantPaths` (events asked for). A URL that must be fetched takes
    /// its cache state along, so the cache is not read twice.
    func checkCache(_ item: WorkItem, job: JobContext, wantPaths: Bool) -> CacheCheck {
        let group = job.groups[item.group]
        if group.has(.fromLoaderOnly) { return .fetch(.ignored) }
        let state = CacheState.read(item: item, job: job, group: group, now: Date().timeIntervalSince1970)
        let outcome: Outcome
        if group.has(.fromCacheOnly) {
            outcome = state.allPresent ? .cached : .missing
        } else if state.allFresh && !group.has(.refreshCached) {
            outcome = .cached
        } else {
            return .fetch(state)
        }
        var result = URLResult(
            url: Redaction.url(item.url), job: job.name, group: group.group.name, outcome: outcome)
        if outcome == .cached && wantPaths { fillPaths(&result, item: item, job: job, group: group) }
        return .answered(result)
    }

    /// Runs one URL that the cache could not answer (see `checkCache`) to its outcome.
    func process(_ item: WorkItem, job: JobContext, cacheState: CacheState) async -> URLResult {
        let clock = ContinuousClock.now
        let group = job.groups[item.group]
        var result = URLResult(
            url: Redaction.url(item.url), job: job.name, group: group.group.name, outcome: .failed)
        await run(item, job: job, group: group, state: cacheState, result: &result)
        result.milliseconds = Self.milliseconds(since: clock)
        if let detail = result.detail { result.detail = Redaction.text(detail, secrets: job.secrets) }
        return result
    }

    private func run(
        _ item: WorkItem, job: JobContext, group: GroupContext, state: CacheState, result: inout URLResult
    ) async {
        let cache = job.cache
        let now = Date().timeIntervalSince1970
        let revalidate = group.has(.refreshCached) && state.allPresent
        if !group.has(.retryFailed),
            let record = cache.failure(forKey: item.key, ttl: group.settings.failedTTL, now: now)
        {
            result.outcome = .blacklisted
            result.reason = FailureReason(code: record.reason)
            result.status = record.status
            return
        }

        var request = LoadRequest(url: item.url)
        request.headers = group.settings.headers.map { HTTPHeaderField(name: $0.name, value: $0.value) }
        request.credentials = group.settings.auth.map {
            Credentials(username: $0.username, password: $0.password)
        }
        request.timeout = group.settings.timeout
        request.connectTimeout = min(group.settings.timeout, 10)
        request.maxBytes = group.settings.maxBytes
        request.allowInvalidSSL = group.has(.allowInvalidSSL)
        request.useCookies = group.has(.handleCookies)
        request.addressPolicy = job.addressPolicy
        if revalidate, let validator = state.validator {
            request.ifNoneMatch = validator.etag
            request.ifModifiedSince = validator.lastModified
        }

        guard let response = await load(request, group: group, result: &result) else {
            recordFailureIfPermanent(result, item: item, job: job, group: group)
            return
        }
        if response.status == 304 {
            guard revalidate else {
                fail(&result, .http(304), "the origin answered 304 to a request that was not conditional")
                return
            }
            renew(item: item, job: job, group: group, response: response, result: &result)
            return
        }
        await store(response, item: item, job: job, group: group, result: &result)
        if result.outcome == .failed {
            recordFailureIfPermanent(result, item: item, job: job, group: group)
        } else {
            cache.clearFailure(key: item.key)
        }
    }

    // MARK: - Loading with retries

    /// Loads with retries. Returns a 2xx or 304 response, or nil with `result` failed/cancelled.
    private func load(_ request: LoadRequest, group: GroupContext, result: inout URLResult) async -> LoadResponse? {
        let policy = RetryPolicy(retries: group.settings.retries, backoff: group.settings.backoff)
        var attempt = 0
        while true {
            attempt += 1
            result.attempts = attempt
            let reason: FailureReason
            var retryAfter: Double? = nil
            switch await loader.load(request) {
            case .success(let response):
                result.status = response.status
                result.bytesDownloaded += Int64(response.body.count)
                if (200..<300).contains(response.status) || response.status == 304 { return response }
                reason = .http(response.status)
                retryAfter = response.retryAfter
                result.detail = "the origin answered HTTP \(response.status)"
            case .failure(let error):
                result.bytesDownloaded += error.bytesReceived
                if let status = error.status { result.status = status }
                guard let failure = error.failureReason else {
                    result.outcome = .cancelled
                    return nil
                }
                reason = failure
                result.detail = error.message
            }
            guard policy.shouldRetry(after: attempt, reason: reason) else {
                result.outcome = .failed
                result.reason = reason
                return nil
            }
            let delay = policy.delay(after: attempt, retryAfter: retryAfter, jitter: Double.random(in: 0...1))
            do {
                try await Task.sleep(for: .milliseconds(Int(delay * 1000)))
            } catch {
                result.outcome = .cancelled
                return nil
            }
        }
    }

    // MARK: - Decoding and storing

    private func store(
        _ response: LoadResponse, item: WorkItem, job: JobContext, group: GroupContext,
        result: inout URLResult
    ) async {
        let body = response.body
        let format: ImageFormat
        switch ImageSniffer.sniff(body) {
        case .image(let sniffed): format = sniffed
        case .unsupported(let name):
            fail(&result, .unsupportedFormat, "\(name) is an image format prewarm does not decode")
            return
        case .notAnImage:
            let type = response.contentType ?? "no Content-Type"
            fail(&result, .notAnImage, "the body is not an image (\(type)); check the URL")
            return
        }

        var rendered: [RenderedVariant] = []
        var info: ImageInfo? = nil
        if !group.has(.avoidDecode) {
            let options = RenderOptions(
                maxPixels: group.settings.maxPixels, firstFrameOnly: group.has(.decodeFirstFrameOnly),
                scaleDownLargeImages: group.has(.scaleDownLargeImages))
            do {
                let output = try await decoder.render(body, variants: group.variants.map(\.request), options: options)
                info = output.info
                rendered = output.variants
            } catch {
                fail(&result, error.failureReason, error.description)
                return
            }
        }

        let now = Date().timeIntervalSince1970
        let cache = job.cache
        do {
            if group.settings.storeOriginal {
                let metadata = EntryMetadata(
                    key: item.key, url: Redaction.url(item.url), format: format.fileExtension,
                    contentType: response.contentType, etag: response.etag,
                    lastModified: response.lastModified, fetchedAt: now, size: Int64(body.count),
                    width: info?.uprightSize.width, height: info?.uprightSize.height, sha256: "",
                    variant: nil, sourceKey: nil)
                let stored = try cache.store(key: item.key, body: body, metadata: metadata)
                result.path = stored.path
                result.bytesWritten += stored.bytesWritten
            }
            for (variant, output) in zip(group.variants, rendered) {
                let key = variant.key(base: item.key)
                let metadata = EntryMetadata(
                    key: key, url: Redaction.url(item.url), format: output.format.fileExtension,
                    contentType: output.format.mimeType, etag: response.etag,
                    lastModified: response.lastModified, fetchedAt: now, size: Int64(output.bytes.count),
                    width: output.size.width, height: output.size.height, sha256: "",
                    variant: variant.description, sourceKey: item.key)
                let stored = try cache.store(key: key, body: output.bytes, metadata: metadata)
                result.variants.append(NamedPath(name: variant.name, path: stored.path))
                result.bytesWritten += stored.bytesWritten
                result.variantsWritten += 1
            }
        } catch {
            fail(&result, .disk, error.description)
            switch error {
            case .diskFull, .notWritable: onFatal(error)
            default: break
            }
            return
        }
        result.outcome = .fetched
    }

    private func renew(
        item: WorkItem, job: JobContext, group: GroupContext, response: LoadResponse,
        result: inout URLResult
    ) {
        let now = Date().timeIntervalSince1970
        let keys = CacheState.keys(item: item, group: group)
        do {
            for key in keys {
                try job.cache.renew(key: key, etag: response.etag, lastModified: response.lastModified, now: now)
            }
        } catch {
            fail(&result, .disk, error.description)
            return
        }
        result.outcome = .revalidated
        fillPaths(&result, item: item, job: job, group: group)
    }

    // MARK: - Helpers

    private func fail(_ result: inout URLResult, _ reason: FailureReason, _ detail: String) {
        result.outcome = .failed
        result.reason = reason
        result.detail = detail
    }

    private func recordFailureIfPermanent(_ result: URLResult, item: WorkItem, job: JobContext, group: GroupContext) {
        guard result.outcome == .failed, let reason = result.reason, reason.isPermanent else { return }
        let record = FailedRecord(
            url: result.url, reason: reason.code, status: result.status,
            at: Date().timeIntervalSince1970, attempts: result.attempts)
        try? job.cache.recordFailure(key: item.key, record: record)
    }

    /// Fills `path` and `variants` for an entry that was already there (cached, revalidated).
    private func fillPaths(_ result: inout URLResult, item: WorkItem, job: JobContext, group: GroupContext) {
        if group.settings.storeOriginal, let metadata = job.cache.metadata(key: item.key) {
            result.path = job.cache.bodyPath(key: item.key, ext: metadata.format)
        }
        for variant in group.variants {
            let key = variant.key(base: item.key)
            if let metadata = job.cache.metadata(key: key) {
                result.variants.append(
                    NamedPath(name: variant.name, path: job.cache.bodyPath(key: key, ext: metadata.format)))
            }
        }
    }

    static func milliseconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
    }
}
