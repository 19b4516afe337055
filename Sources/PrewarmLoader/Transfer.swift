import CCurl
import Glibc
import Synchronization

/// Body bytes received by all transfers of one loader, readable from any thread for progress.
final class ByteCounter: Sendable {
    let total = Atomic<Int64>(0)
}

/// One curl easy handle and what its callbacks collect. Lives on the loader thread only: created
/// there, driven by the multi handle there, finished or cancelled there.
final class Transfer {
    let id: UInt64
    let request: LoadRequest
    let easy: UnsafeMutableRawPointer
    private let counter: ByteCounter
    private let addressGuard: AddressGuard
    private var headerList: UnsafeMutablePointer<curl_slist>?
    let errorBuffer: UnsafeMutablePointer<CChar>

    private(set) var body: [UInt8] = []
    private(set) var headers = ResponseHeaders()
    /// Set when the open-socket callback refused an address: the reason the connect failed.
    private(set) var refusedAddress: String?
    /// Set when the write callback stopped the body at `maxBytes`.
    private(set) var exceededMaxBytes = false

    var bytesReceived: Int64 { Int64(body.count) }

    init?(
        id: UInt64, request: LoadRequest, userAgent: String, share: UnsafeMutableRawPointer?,
        counter: ByteCounter
    ) {
        guard let easy = curl_easy_init() else { return nil }
        self.id = id
        self.request = request
        self.easy = easy
        self.counter = counter
        self.addressGuard = AddressGuard(ranges: request.addressPolicy.deniedRanges)
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        configure(userAgent: userAgent, share: share)
    }

    deinit {
        curl_easy_cleanup(easy)
        curl_slist_free_all(headerList)
        errorBuffer.deallocate()
    }

    private func configure(userAgent: String, share: UnsafeMutableRawPointer?) {
        let me = Unmanaged.passUnretained(self).toOpaque()
        setString(CURLOPT_URL, request.url)
        setString(CURLOPT_PROTOCOLS_STR, "http,https")
        setString(CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        setLong(CURLOPT_FOLLOWLOCATION, 1)
        setLong(CURLOPT_MAXREDIRS, max(0, request.maxRedirects))
        setLong(CURLOPT_NOSIGNAL, 1)
        setLong(CURLOPT_TIMEOUT_MS, milliseconds(request.timeout))
        setLong(CURLOPT_CONNECTTIMEOUT_MS, milliseconds(request.connectTimeout))
        // Known sizes fail before the body is read; unknown ones are caught in `receive(_:)`.
        _ = pw_easy_setopt_off(easy, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(request.maxBytes))
        setString(CURLOPT_USERAGENT, userAgent)
        _ = pw_easy_setopt_pointer(easy, CURLOPT_ERRORBUFFER, errorBuffer)

        var lines = request.headers.map { "\($0.name): \($0.value)" }
        if let etag = request.ifNoneMatch { lines.append("If-None-Match: \(etag)") }
        if let date = request.ifModifiedSince { lines.append("If-Modified-Since: \(date)") }
        for line in lines { headerList = curl_slist_append(headerList, line) }
        if headerList != nil { _ = pw_easy_setopt_pointer(easy, CURLOPT_HTTPHEADER, headerList) }

        if let credentials = request.credentials {
            setLong(CURLOPT_HTTPAUTH, pw_curlauth_basic)
            setString(CURLOPT_USERNAME, credentials.username)
            setString(CURLOPT_PASSWORD, credentials.password)
        }
        if request.allowInvalidSSL {
            setLong(CURLOPT_SSL_VERIFYPEER, 0)
            setLong(CURLOPT_SSL_VERIFYHOST, 0)
        }
        if request.useCookies, let share {
            _ = pw_easy_setopt_pointer(easy, CURLOPT_SHARE, share)
            // "" turns the cookie engine on without reading a file.
            setString(CURLOPT_COOKIEFILE, "")
        }

        _ = pw_easy_setopt_write_callback(easy, CURLOPT_WRITEFUNCTION, transferWriteBody)
        _ = pw_easy_setopt_pointer(easy, CURLOPT_WRITEDATA, me)
        _ = pw_easy_setopt_write_callback(easy, CURLOPT_HEADERFUNCTION, transferWriteHeader)
        _ = pw_easy_setopt_pointer(easy, CURLOPT_HEADERDATA, me)
        _ = pw_easy_setopt_opensocket_callback(easy, transferOpenSocket)
        _ = pw_easy_setopt_pointer(easy, CURLOPT_OPENSOCKETDATA, me)
    }

    private func setLong(_ option: CURLoption, _ value: Int) {
        _ = pw_easy_setopt_long(easy, option, value)
    }

    private func setString(_ option: CURLoption, _ value: String) {
        _ = pw_easy_setopt_string(easy, option, value)
    }

    private func milliseconds(_ seconds: Double) -> Int {
        guard seconds.isFinite, seconds > 0 else { return 0 }
        return max(1, Int(min(seconds * 1000, Double(Int32.max))))
    }

    // MARK: Callbacks (called by curl on the loader thread)

    /// Returns false to stop the transfer: the body would pass `maxBytes`.
    fileprivate func receive(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if Int64(body.count) + Int64(bytes.count) > request.maxBytes {
            exceededMaxBytes = true
            return false
        }
        if body.isEmpty { reserveForDeclaredLength() }
        body.append(contentsOf: bytes)
        counter.total.add(Int64(bytes.count), ordering: .relaxed)
        return true
    }

    /// One allocation for the whole body when the response declares its length (within maxBytes).
    private func reserveForDeclaredLength() {
        var length: curl_off_t = -1
        guard pw_easy_getinfo_off(easy, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &length) == CURLE_OK,
            length > 0
        else { return }
        body.reserveCapacity(Int(min(Int64(length), request.maxBytes)))
    }

    fileprivate func receiveHeader(_ bytes: UnsafeRawBufferPointer) {
        headers.consume(line: String(decoding: bytes, as: UTF8.self))
    }

    /// Refuses a denied address before any packet is sent; otherwise opens the socket as curl would.
    fileprivate func openSocket(_ address: UnsafeMutablePointer<curl_sockaddr>) -> curl_socket_t {
        var raw = [UInt8](repeating: 0, count: 16)
        let length = Int(pw_sockaddr_ip(address, &raw))
        if length > 0 {
            let ip = Array(raw.prefix(length))
            if let range = addressGuard.refusal(for: ip) {
                refusedAddress = "\(AddressGuard.describe(ip)) (in \(range.text))"
                return CURL_SOCKET_BAD
            }
        }
        return socket(address.pointee.family, address.pointee.socktype, address.pointee.protocol)
    }
}

private func transferWriteBody(
    _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int,
    _ context: UnsafeMutableRawPointer?
) -> Int {
    guard let context else { return 0 }
    let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    return transfer.receive(UnsafeRawBufferPointer(start: data, count: length)) ? length : 0
}

private func transferWriteHeader(
    _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int,
    _ context: UnsafeMutableRawPointer?
) -> Int {
    guard let context else { return 0 }
    let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    transfer.receiveHeader(UnsafeRawBufferPointer(start: data, count: length))
    return length
}

private func transferOpenSocket(
    _ context: UnsafeMutableRawPointer?, _ purpose: curlsocktype,
    _ address: UnsafeMutablePointer<curl_sockaddr>?
) -> curl_socket_t {
    guard let context, let address else { return CURL_SOCKET_BAD }
    let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
    return transfer.openSocket(address)
}
