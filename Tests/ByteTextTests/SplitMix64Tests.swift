import ByteText
import Testing

@Suite struct SplitMix64Tests {
    /// The reference implementation's first outputs for seed 0, so benchmarks and seeded tests keep their numbers.
    @Test func followsTheReferenceSequence() {
        var generator = SplitMix64(seed: 0)
        #expect((0..<3).map { _ in generator.next() } == [0xE220_A839_7B1D_CDAF, 0x6E78_9E6A_A1B9_65F4, 0x06C4_5D18_8009_454F])
        #expect(SplitMix64.mix(0) == 0xE220_A839_7B1D_CDAF)
    }

    /// `mix` gives distinct numbers for distinct values (it is a bijection), as request ids rely on.
    @Test func mixKeepsValuesApart() {
        let values: [UInt64] = (0..<10_000).map { $0 } + (0..<10_000).map { UInt64.max - $0 } + (0..<64).map { 1 << $0 }
        #expect(Set(values.map(SplitMix64.mix)).count == Set(values).count)
    }
}
