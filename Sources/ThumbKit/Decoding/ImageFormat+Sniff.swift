// SPDX-License-Identifier: Apache-2.0
extension ImageFormat {
    /// ISO-BMFF brands (ISO/IEC 23008-12, the AVIF spec) that make a file HEIC: HEVC stills and
    /// sequences, and the generic HEIF brands `mif1` / `msf1` that libheif decodes too.
    static let heicBrands: Set<String> = ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1"]
    /// The generic HEIF brands: AVIF files may carry them as their major brand too.
    static let genericBrands: Set<String> = ["mif1", "msf1"]
    /// Brands that make a file AVIF (still and sequence).
    static let avifBrands: Set<String> = ["avif", "avis"]

    /// The formats ThumbKit can write (HEIC is read only: no HEVC encoder is shipped).
    public var isWritable: Bool { self != .heic }

    /// WebP (`RIFF` size `WEBP`) or an ISO-BMFF file whose leading `ftyp` box names a HEIF or
    /// AVIF brand. The major brand decides when it is one of them; otherwise an AVIF compatible
    /// brand wins over a HEIC one (AVIF files list `mif1` too, some as the major brand).
    static func sniffModern(_ bytes: [UInt8]) -> ImageFormat? {
        if bytes.count >= 12, bytes[0..<4].elementsEqual(Array("RIFF".utf8)),
            bytes[8..<12].elementsEqual(Array("WEBP".utf8))
        {
            return .webp
        }
        guard bytes.count >= 16, bytes[4..<8].elementsEqual(Array("ftyp".utf8)) else { return nil }
        let size = Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3])
        guard size >= 16 else { return nil }
        let end = min(size, bytes.count)
        let brand = { (at: Int) in String(decoding: bytes[at..<at + 4], as: UTF8.self) }
        let major = brand(8)
        if avifBrands.contains(major) { return .avif }
        if heicBrands.contains(major), !genericBrands.contains(major) { return .heic }
        var compatible: [String] = []
        var at = 16
        while at + 4 <= end {
            compatible.append(brand(at))
            at += 4
        }
        if compatible.contains(where: avifBrands.contains) { return .avif }
        if compatible.contains(where: heicBrands.contains) { return .heic }
        return nil
    }
}
