/// The platform an app is built for, which decides the association file that names it (iOS apps in
/// `apple-app-site-association`, Android apps in `assetlinks.json`) and the answer resolve gives for it.
public enum AppPlatform: String, Sendable, Hashable {
    case ios, android
}
