/// The two association files a link domain serves, named as their paths end.
enum AssociationFile: String, Sendable, CaseIterable {
    case aasa = "apple-app-site-association"
    case assetLinks = "assetlinks.json"
}
