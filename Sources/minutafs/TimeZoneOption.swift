import ArgumentParser
import MinutaStore

/// `--timezone ZONE`, checked in `validate()`: an unknown zone is a usage error (exit status 64, the
/// usage and the option named), like any other option value the command cannot take.
enum TimeZoneOption {
    static func validate(_ identifier: String?) throws(ValidationError) {
        guard let identifier, StoreTimeZone(identifier: identifier) == nil else { return }
        throw ValidationError("--timezone \(identifier): unknown time zone; give an IANA name such as Europe/Berlin or UTC (see /usr/share/zoneinfo)")
    }
}
