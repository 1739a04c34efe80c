/// The one EXIF tag a cleaned photo keeps: Orientation (0x0112), which says how the camera was
/// held. Without it a phone's upright photo would show on its side.
///
/// EXIF is a TIFF structure (a byte order, then directories of 12-byte entries); only the first
/// directory (IFD0), where Orientation lives, is read. A damaged EXIF gives no orientation
/// rather than an error: it is thrown away anyway.
enum ExifOrientation {
    static let tag = 0x0112

    /// The orientation (1 to 8) in the TIFF structure that `tiff` holds, if it has a valid one.
    /// A leading "Exif\0\0" (as in JPEG's APP1, and in some WebP files) is skipped.
    static func read(_ tiff: HeaderBytes) -> Int? {
        let start = tiff.matches(exifPrefix, at: 0) ? exifPrefix.count : 0
        guard let bytes = try? tiff.view(start..<tiff.count) else { return nil }
        let littleEndian: Bool
        if bytes.matches([0x49, 0x49, 0x2A, 0x00], at: 0) {
            littleEndian = true
        } else if bytes.matches([0x4D, 0x4D, 0x00, 0x2A], at: 0) {
            littleEndian = false
        } else {
            return nil
        }
        guard let directory = try? bytes.uint32(4, littleEndian: littleEndian),
            let entries = try? bytes.uint16(directory, littleEndian: littleEndian)
        else { return nil }
        for index in 0..<entries {
            let entry = directory + 2 + index * 12
            guard let tag = try? bytes.uint16(entry, littleEndian: littleEndian) else { return nil }
            guard tag == Self.tag else { continue }
            // Type SHORT (3), one value, held in the entry's first two value bytes.
            guard (try? bytes.uint16(entry + 2, littleEndian: littleEndian)) == 3,
                (try? bytes.uint32(entry + 4, littleEndian: littleEndian)) == 1,
                let value = try? bytes.uint16(entry + 8, littleEndian: littleEndian), (1...8).contains(value)
            else { return nil }
            return value
        }
        return nil
    }

    static let exifPrefix: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0x00, 0x00]  // "Exif\0\0"

    /// A TIFF structure holding only `orientation`: 26 bytes, big-endian, one directory of one
    /// entry, nothing a person could be found by.
    static func minimalTIFF(_ orientation: Int) -> [UInt8] {
        [
            0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08,  // "MM", 42, IFD0 at 8
            0x00, 0x01,  // one entry
            0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01,  // Orientation, SHORT, one value
            0x00, UInt8(orientation), 0x00, 0x00,
            0x00, 0x00, 0x00, 0x00,  // no next directory
        ]
    }
}
