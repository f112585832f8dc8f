import Foundation

/// The pixels of a PNG file, decoded by our own small reader (8-bit RGB or RGBA, not interlaced: what
/// Chromium's screenshots are), so a test can tell a blank screenshot from a drawn one.
struct PNGImage {
    let width: Int
    let height: Int
    /// RGB triples, row by row.
    let pixels: [UInt8]

    struct Unsupported: Error, CustomStringConvertible {
        let description: String
    }

    init(_ data: [UInt8]) throws {
        guard data.count > 8, Array(data[0..<8]) == [137, 80, 78, 71, 13, 10, 26, 10] else { throw Unsupported(description: "not a PNG file") }
        var offset = 8
        var width = 0
        var height = 0
        var channels = 0
        var compressed: [UInt8] = []
        func number(_ at: Int) -> Int { data[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        while offset + 8 <= data.count {
            let length = number(offset)
            let type = String(decoding: data[offset + 4..<offset + 8], as: UTF8.self)
            let body = offset + 8
            guard body + length <= data.count else { throw Unsupported(description: "truncated chunk \(type)") }
            switch type {
            case "IHDR":
                width = number(body)
                height = number(body + 4)
                guard data[body + 8] == 8, data[body + 12] == 0 else { throw Unsupported(description: "only 8-bit, non-interlaced images") }
                switch data[body + 9] {
                case 2: channels = 3
                case 6: channels = 4
                default: throw Unsupported(description: "colour type \(data[body + 9])")
                }
            case "IDAT": compressed += data[body..<body + length]
            default: break
            }
            offset = body + length + 4
        }
        let raw = try Inflate.zlib(compressed)
        let stride = width * channels
        guard raw.count >= height * (stride + 1) else { throw Unsupported(description: "too little image data") }
        var previous = [UInt8](repeating: 0, count: stride)
        var rgb: [UInt8] = []
        rgb.reserveCapacity(width * height * 3)
        for row in 0..<height {
            let start = row * (stride + 1)
            let filter = raw[start]
            var line = Array(raw[start + 1..<start + 1 + stride])
            for index in 0..<stride {
                let left = index >= channels ? Int(line[index - channels]) : 0
                let up = Int(previous[index])
                let upLeft = index >= channels ? Int(previous[index - channels]) : 0
                let predictor: Int
                switch filter {
                case 0: predictor = 0
                case 1: predictor = left
                case 2: predictor = up
                case 3: predictor = (left + up) / 2
                case 4:
                    let estimate = left + up - upLeft
                    let (a, b, c) = (abs(estimate - left), abs(estimate - up), abs(estimate - upLeft))
                    predictor = a <= b && a <= c ? left : b <= c ? up : upLeft
                default: throw Unsupported(description: "filter \(filter)")
                }
                line[index] = UInt8(truncatingIfNeeded: Int(line[index]) + predictor)
            }
            for pixel in 0..<width { rgb += line[pixel * channels..<pixel * channels + 3] }
            previous = line
        }
        self.width = width
        self.height = height
        self.pixels = rgb
    }

    /// How many pixels have each colour.
    var histogram: [UInt32: Int] {
        var counts: [UInt32: Int] = [:]
        for index in stride(from: 0, to: pixels.count, by: 3) {
            counts[UInt32(pixels[index]) << 16 | UInt32(pixels[index + 1]) << 8 | UInt32(pixels[index + 2]), default: 0] += 1
        }
        return counts
    }
}

/// DEFLATE (RFC 1951) inside a zlib stream (RFC 1950): stored, fixed and dynamic Huffman blocks.
enum Inflate {
    struct Malformed: Error {}

    static func zlib(_ data: [UInt8]) throws -> [UInt8] {
        guard data.count > 2 else { throw Malformed() }
        var reader = BitReader(data: data, position: 2)
        var output: [UInt8] = []
        var last = false
        while !last {
            last = try reader.bits(1) == 1
            switch try reader.bits(2) {
            case 0:
                reader.alignToByte()
                let length = try reader.bits(16)
                _ = try reader.bits(16)
                for _ in 0..<length { output.append(UInt8(try reader.bits(8))) }
            case 1:
                try inflateBlock(&reader, &output, literals: fixedLiterals, distances: fixedDistances)
            case 2:
                let (literals, distances) = try dynamicTables(&reader)
                try inflateBlock(&reader, &output, literals: literals, distances: distances)
            default:
                throw Malformed()
            }
        }
        return output
    }

    private struct BitReader {
        let data: [UInt8]
        var position: Int
        var bit = 0

        init(data: [UInt8], position: Int) {
            self.data = data
            self.position = position
        }

        mutating func bits(_ count: Int) throws -> Int {
            var value = 0
            for index in 0..<count {
                guard position < data.count else { throw Malformed() }
                value |= Int((data[position] >> bit) & 1) << index
                bit += 1
                if bit == 8 {
                    bit = 0
                    position += 1
                }
            }
            return value
        }

        mutating func alignToByte() {
            if bit != 0 {
                bit = 0
                position += 1
            }
        }
    }

    /// A canonical Huffman code: symbols by code length, decoded bit by bit.
    private struct Huffman {
        var counts = [Int](repeating: 0, count: 16)
        var symbols: [Int] = []

        init(lengths: [Int]) {
            for length in lengths { counts[length] += 1 }
            counts[0] = 0
            var offsets = [Int](repeating: 0, count: 16)
            for length in 1..<16 { offsets[length] = offsets[length - 1] + counts[length - 1] }
            symbols = [Int](repeating: 0, count: lengths.count)
            for (symbol, length) in lengths.enumerated() where length > 0 {
                symbols[offsets[length]] = symbol
                offsets[length] += 1
            }
        }

        func decode(_ reader: inout BitReader) throws -> Int {
            var code = 0
            var first = 0
            var index = 0
            for length in 1..<16 {
                code |= try reader.bits(1)
                let count = counts[length]
                if code - count < first { return symbols[index + (code - first)] }
                index += count
                first = (first + count) << 1
                code <<= 1
            }
            throw Malformed()
        }
    }

    private static let lengthBase = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
    private static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    private static let distanceBase = [
        1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
    ]
    private static let distanceExtra = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]
    private static let fixedLiterals = Huffman(lengths: (0..<288).map { $0 < 144 ? 8 : $0 < 256 ? 9 : $0 < 280 ? 7 : 8 })
    private static let fixedDistances = Huffman(lengths: [Int](repeating: 5, count: 30))

    private static func dynamicTables(_ reader: inout BitReader) throws -> (Huffman, Huffman) {
        let literalCount = try reader.bits(5) + 257
        let distanceCount = try reader.bits(5) + 1
        let codeCount = try reader.bits(4) + 4
        let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
        var codeLengths = [Int](repeating: 0, count: 19)
        for index in 0..<codeCount { codeLengths[order[index]] = try reader.bits(3) }
        let lengthCode = Huffman(lengths: codeLengths)
        var lengths: [Int] = []
        while lengths.count < literalCount + distanceCount {
            let symbol = try lengthCode.decode(&reader)
            switch symbol {
            case 0...15: lengths.append(symbol)
            case 16:
                guard let previous = lengths.last else { throw Malformed() }
                lengths += [Int](repeating: previous, count: 3 + (try reader.bits(2)))
            case 17: lengths += [Int](repeating: 0, count: 3 + (try reader.bits(3)))
            default: lengths += [Int](repeating: 0, count: 11 + (try reader.bits(7)))
            }
        }
        return (Huffman(lengths: Array(lengths[0..<literalCount])), Huffman(lengths: Array(lengths[literalCount...])))
    }

    private static func inflateBlock(_ reader: inout BitReader, _ output: inout [UInt8], literals: Huffman, distances: Huffman) throws {
        while true {
            let symbol = try literals.decode(&reader)
            if symbol < 256 {
                output.append(UInt8(symbol))
            } else if symbol == 256 {
                return
            } else {
                let index = symbol - 257
                guard index < lengthBase.count else { throw Malformed() }
                let length = lengthBase[index] + (try reader.bits(lengthExtra[index]))
                let code = try distances.decode(&reader)
                guard code < distanceBase.count else { throw Malformed() }
                let distance = distanceBase[code] + (try reader.bits(distanceExtra[code]))
                guard distance <= output.count else { throw Malformed() }
                for _ in 0..<length { output.append(output[output.count - distance]) }
            }
        }
    }
}
