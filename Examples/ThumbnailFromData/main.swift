// SPDX-License-Identifier: Apache-2.0
// A complete use of the ThumbKit library: read an image file into memory, make an 88×88
// aspect-fill thumbnail at @1x and @2x from one decode, and write each as a JPEG.
//
//   swift run -c release thumbnail-example photo.jpg
//
// CI builds this file against the `ThumbKit` product alone and checks that the binary links
// neither SQLite nor OpenSSL (scripts/check-example).
import Foundation
import ThumbKit

let arguments = CommandLine.arguments
guard arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: thumbnail-example IMAGE\n".utf8))
    exit(2)
}
let path = arguments[1]
guard let data = FileManager.default.contents(atPath: path) else {
    FileHandle.standardError.write(Data("thumbnail-example: \(path): cannot read the file\n".utf8))
    exit(1)
}

// What to make: a 44 pt box at @1x and @2x, filled and centre-cropped as UIKit's
// imageByScalingAndCroppingForSize: does, with the default limits and colour management.
let request = ThumbnailRequest(resize: ResizeOptions(width: 44, height: 44, mode: .fill), scales: [1, 2])
do {
    let thumbnails = try Thumbnailer.make(from: [UInt8](data), path: path, request: request)
    for (scale, image) in thumbnails.images {
        let jpeg = try ImageEncoders.encode(
            image, options: EncodeOptions(format: .jpeg, quality: 85), profile: thumbnails.colorProfile)
        let name = scale == 1 ? "thumb.jpg" : "thumb@\(scale)x.jpg"
        try Data(jpeg).write(to: URL(fileURLWithPath: name), options: .atomic)
        print("\(name): \(image.width)×\(image.height), \(jpeg.count) bytes")
    }
} catch {
    FileHandle.standardError.write(Data("thumbnail-example: \(error)\n".utf8))
    exit(1)
}
