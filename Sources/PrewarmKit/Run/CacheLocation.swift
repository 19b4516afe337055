import Foundation

/// Where a job's cache lives (SPEC "CLI"): `--cache`, then the manifest's `cache.path`, then
/// `$PREWARM_CACHE`, then `$XDG_CACHE_HOME/prewarm`, then `~/.cache/prewarm`.
public enum CacheLocation {
    public static func resolve(flag: String?, manifestPath: String?, environment: [String: String]) -> String {
        if let flag, !flag.isEmpty { return flag }
        if let manifestPath, !manifestPath.isEmpty { return manifestPath }
        if let env = environment["PREWARM_CACHE"], !env.isEmpty { return env }
        if let xdg = environment["XDG_CACHE_HOME"], !xdg.isEmpty { return xdg + "/prewarm" }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + "/.cache/prewarm"
    }
}
