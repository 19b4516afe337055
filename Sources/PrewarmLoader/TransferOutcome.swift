import CCurl
import Glibc
import PrewarmCore

/// Turns a finished transfer into the caller's result: a response, or a failure whose message says
/// what curl saw and what to do about it.
extension Transfer {
    func outcome(code: CURLcode) -> Result<LoadResponse, LoadError> {
        if code == CURLE_OK { return .success(response()) }
        return .failure(failure(code: code))
    }

    private var status: Int? {
        var value = 0
        guard pw_easy_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &value) == CURLE_OK, value > 0
        else {
            return nil
        }
        return value
    }

    private func response() -> LoadResponse {
        var effective: UnsafePointer<CChar>?
        _ = pw_easy_getinfo_string(easy, CURLINFO_EFFECTIVE_URL, &effective)
        let fields = headers.fields
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return LoadResponse(
            status: status ?? 0,
            body: body,
            effectiveURL: effective.map { String(cString: $0) } ?? request.url,
            contentType: fields["content-type"],
            etag: fields["etag"],
            lastModified: fields["last-modified"],
            retryAfter: headers.retryAfter(now: Double(now.tv_sec)),
            headers: fields)
    }

    private func failure(code: CURLcode) -> LoadError {
        let (kind, advice) = classify(code)
        let detail = String(cString: errorBuffer)
        let curlText = detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
        var message = "curl: (\(code.rawValue)) \(curlText)"
        if kind == .blockedAddress, code == CURLE_COULDNT_CONNECT {
            // curl only saw a socket it could not open; the real reason is ours.
            message = advice
        } else if !advice.isEmpty {
            message += " — " + advice
        }
        return LoadError(
            kind: kind, message: Redaction.text(message, secrets: secrets), status: status,
            bytesReceived: bytesReceived)
    }

    /// Values that must never show in a message: the password and credential-bearing headers.
    private var secrets: [String] {
        let sensitive: Set<String> = ["authorization", "proxy-authorization", "cookie"]
        var values = request.headers.filter { sensitive.contains($0.name.lowercased()) }.map(
            \.value)
        if let credentials = request.credentials { values.append(credentials.password) }
        return values
    }

    /// " to <url>" for the redirect curl refused to follow (the last response's Location), or "".
    private var redirectTarget: String {
        guard let location = headers.fields["location"] else { return "" }
        return " to " + Redaction.url(location)
    }

    private func classify(_ code: CURLcode) -> (LoadFailureKind, String) {
        let sawResponse = headers.responsesSeen > 0
        switch code {
        case CURLE_OPERATION_TIMEDOUT:
            return (
                .timeout,
                "the origin did not finish within \(request.timeout) s; raise `timeout` or check the origin"
            )
        case CURLE_COULDNT_CONNECT where refusedAddress != nil:
            return (
                .blockedAddress,
                "blocked: refused to connect to \(refusedAddress!); link-local addresses are always refused, "
                    + "loopback, private and listed ranges when the manifest's network.deny names them"
            )
        case CURLE_COULDNT_CONNECT, CURLE_SEND_ERROR, CURLE_GOT_NOTHING:
            return (
                .connect,
                "the origin is unreachable or closed the connection; check host, port and firewall"
            )
        case CURLE_RECV_ERROR where bytesReceived == 0:
            return (.connect, "the connection failed before any body arrived; check the origin")
        case CURLE_RECV_ERROR, CURLE_PARTIAL_FILE:
            return (
                .truncated,
                "the body ended early after \(bytesReceived) bytes; the origin or a proxy cut it"
            )
        case CURLE_COULDNT_RESOLVE_HOST:
            return (.dns, "the host name did not resolve; check the URL and DNS")
        case CURLE_COULDNT_RESOLVE_PROXY:
            return (.dns, "the proxy's host name did not resolve; check the proxy settings")
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CERTPROBLEM,
            CURLE_SSL_CIPHER, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ENGINE_NOTFOUND,
            CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_ENGINE_INITFAILED, CURLE_SSL_CRL_BADFILE,
            CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS,
            CURLE_SSL_SHUTDOWN_FAILED, CURLE_SSL_CLIENTCERT, CURLE_USE_SSL_FAILED:
            return (.tls, "TLS failed; check the certificate (allow_invalid_ssl is for tests only)")
        case CURLE_TOO_MANY_REDIRECTS:
            return (
                .tooManyRedirects, "more than \(request.maxRedirects) redirects; the URL may loop"
            )
        case CURLE_FILESIZE_EXCEEDED:
            return (.tooLarge, "the body is larger than max_bytes (\(request.maxBytes) bytes)")
        case CURLE_WRITE_ERROR where exceededMaxBytes:
            return (
                .tooLarge,
                "the body passed max_bytes (\(request.maxBytes) bytes); raise max_bytes to allow it"
            )
        case CURLE_UNSUPPORTED_PROTOCOL where sawResponse:
            return (
                .blockedAddress,
                "refused a redirect\(redirectTarget); only http/https redirects are followed"
            )
        case CURLE_UNSUPPORTED_PROTOCOL:
            return (.invalidURL, "only http and https URLs are fetched")
        case CURLE_URL_MALFORMAT:
            return (.invalidURL, "the URL is malformed; fix it in the manifest")
        default:
            return (.other, "")
        }
    }
}
