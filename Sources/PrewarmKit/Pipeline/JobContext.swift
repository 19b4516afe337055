import PrewarmCache
import PrewarmCodec
import PrewarmCore
import PrewarmLoader
import PrewarmManifest

/// One manifest, made ready to run: its cache, key filter, address policy and, per group, the
/// variants with their cache-key descriptions and codec requests.
struct JobContext: Sendable {
    let index: Int
    let manifest: Manifest
    let cache: DiskCache
    let keyFilter: CacheKeyFilter
    let addressPolicy: AddressPolicy
    let groups: [GroupContext]
    /// Secret strings (from `${...}` headers and passwords) to scrub from any message.
    let secrets: [String]

    var name: String { manifest.job }
    var maxAge: Double? { manifest.cache.maxAge }

    init(index: Int, manifest: Manifest, cache: DiskCache) {
        self.index = index
        self.manifest = manifest
        self.cache = cache
        self.keyFilter = CacheKeyFilter(
            dropQuery: manifest.cache.key.dropQuery, dropQueryParams: manifest.cache.key.dropQueryParams)
        var policy = AddressPolicy()
        for denied in manifest.network.deny {
            switch denied {
            case .loopback: policy.denyLoopback = true
            case .privateRange: policy.denyPrivate = true
            case .linkLocal: break  // always refused by the loader
            case .cidr(let block): policy.deniedCIDRs.append(block)
            }
        }
        self.addressPolicy = policy
        self.groups = manifest.groups.map(GroupContext.init)
        self.secrets = manifest.groups.flatMap { group in
            group.settings.headers.filter(\.isSecret).map(\.value)
                + (group.settings.auth.map { [$0.password] } ?? [])
        }
    }
}

/// One group's settings, with the per-URL work that depends only on them done once.
struct GroupContext: Sendable {
    let group: Group
    let variants: [PreparedVariant]

    init(_ group: Group) {
        self.group = group
        self.variants = group.settings.variants.map(PreparedVariant.init)
    }

    var settings: GroupSettings { group.settings }
    func has(_ option: Option) -> Bool { group.settings.options.contains(option) }
}

/// A variant ready for the codec and the cache.
struct PreparedVariant: Sendable {
    let name: String
    /// The cache-key description, e.g. `w320h320-cover-webp-q80`.
    let description: String
    let request: VariantRequest

    init(_ spec: VariantSpec) {
        name = spec.name
        description = VariantDescription.of(spec)
        request = VariantRequest(
            name: spec.name, width: spec.width, height: spec.height,
            fit: PrewarmCodec.Fit(rawValue: spec.fit.rawValue) ?? .contain,
            format: OutputFormat(rawValue: spec.format.rawValue) ?? .auto,
            quality: spec.quality, enlarge: spec.enlarge)
    }

    func key(base: String) -> String { VariantKey.key(base: base, description: description) }
}
