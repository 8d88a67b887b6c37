/// The platform a visitor's device runs, as its `User-Agent` tells (`UserAgent.platform`): what a hit records
/// and analytics count, wider than `AppPlatform` since visitors also come from desktops and unknown clients.
public enum DevicePlatform: String, Sendable, Hashable, CaseIterable {
    case ios, android, desktop, other
}
