extension String {
    /// The text with every UTF-8 byte other than ASCII letters, digits, `-`, `_`, `.` and the given
    /// characters written as `%XX`: a path segment or relative reference safe in a URI.
    func percentEncoded(keeping extra: Set<UInt8> = []) -> String {
        let hex = Array("0123456789ABCDEF")
        var result = ""
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            case _ where extra.contains(byte):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                result += "%\(hex[Int(byte >> 4)])\(hex[Int(byte & 15)])"
            }
        }
        return result
    }
}
