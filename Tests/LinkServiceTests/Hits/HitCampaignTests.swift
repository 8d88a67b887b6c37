import Foundation
@testable import LinkService
import Testing

/// A tap's campaign: read from the URL's query, filled from the link's own, bounded in the rollups.
@Suite("Hit campaigns")
struct HitCampaignTests {
    @Test func theQueryWinsFieldByFieldAndTheLinkFillsTheRest() throws {
        let link = Hit.Campaign(source: "newsletter", medium: "email", campaign: "spring24")
        let tapped = try #require(
            Hit.Campaign.of(query: "id=4&utm_source=twitter&utm_content=hero+image&utm_term=%C3%A9t%C3%A9", link: link))
        #expect(tapped.source == "twitter")
        #expect(tapped.medium == "email")
        #expect(tapped.campaign == "spring24")
        #expect(tapped.term == "été")
        #expect(tapped.content == "hero image")
        // Without a link, only what the query carries.
        let alone = try #require(Hit.Campaign.of(query: "utm_campaign=spring%20sale&utm_campaign=second", link: nil))
        #expect(alone == Hit.Campaign(campaign: "spring sale")) // the first of a repeated item
        #expect(alone.source == nil)
    }

    @Test func aQueryWithoutUTMItemsIsTheLinksCampaignItself() {
        let link = Hit.Campaign(source: "newsletter")
        #expect(Hit.Campaign.of(query: nil, link: link) === link)
        #expect(Hit.Campaign.of(query: "id=4&tab=info", link: link) === link)
        // `utm_` inside a value, another name ending in it, a different case, an empty value: not a campaign.
        #expect(Hit.Campaign.of(query: "next=utm_source%3Dx&xutm_source=y&UTM_SOURCE=z&utm_source=&utm_sources=w", link: link) === link)
        #expect(Hit.Campaign.of(query: "next=utm_source", link: nil) == nil)
        #expect(Hit.Campaign.of(query: "utm_source=", link: nil) == nil)
    }

    @Test func valuesAreCleanedAndCut() throws {
        // NUL bytes are left out; a value is cut to 200 bytes of UTF-8 at a character boundary.
        let tapped = try #require(
            Hit.Campaign.of(query: "utm_source=a%00b&utm_term=" + String(repeating: "%E2%82%AC", count: 100), link: nil))
        #expect(tapped.source == "ab")
        #expect(tapped.term == String(repeating: "€", count: 66)) // 198 bytes: a 67th would not fit whole
        #expect(Hit.Campaign(source: "", medium: "\u{0}").isEmpty)
        // A hit never holds an empty campaign.
        #expect(Hit.sample(campaign: Hit.Campaign()).campaign == nil)
    }

    @Test func theRollupsKeepABoundedNumberOfCampaignsPerWorkspaceHour() {
        let workspace = UUID(), other = UUID(), now = Date(), link = UUID()
        let hits =
            (0..<5).map { Hit.sample(workspace: workspace, time: now, campaign: Hit.Campaign(source: "s", campaign: "c\($0)")) }
            + [Hit.sample(workspace: workspace, time: now, campaign: Hit.Campaign(source: "s", campaign: "c1"))] // admitted already
            + [Hit.sample(workspace: other, time: now, link: link, campaign: Hit.Campaign(campaign: "c4"))] // another workspace
            // the next hour
            + [Hit.sample(workspace: workspace, time: now.addingTimeInterval(3600), campaign: Hit.Campaign(campaign: "c4"))]
        var summary = HitBatchSummary(campaigns: HitCampaignLimit(perHour: 2))
        summary.add(hits)
        let counted = summary.rollups.map { ($0.key.campaign?.description ?? "-", $0.value.hits) }.sorted { $0.0 < $1.0 }
        #expect(
            counted.map(\.0) == [
                "utm_campaign=c4", "utm_campaign=c4", "utm_source=(other)&utm_campaign=(other)",
                "utm_source=s&utm_campaign=c0", "utm_source=s&utm_campaign=c1",
            ])
        #expect(counted.map(\.1) == [1, 1, 3, 1, 2])
        #expect(summary.rollups.keys.filter { $0.link == link }.count == 1)
        // The next batch starts from what this one admitted.
        var next = HitBatchSummary(campaigns: summary.campaigns)
        next.add([Hit.sample(workspace: workspace, time: now, campaign: Hit.Campaign(source: "s", campaign: "c9"))])
        #expect(next.rollups.keys.first?.campaign?.campaign == Hit.Campaign.overflowValue)
    }
}
