// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit
import ThumbKitCatalog
import ThumbKitQuality

/// The demo catalog: pictures drawn by `DemoPictures` and the import file that lists them.
///
/// Written into one folder:
/// ```
/// catalog.json              the import file (paths relative to it)
/// bugs/<slug>.jpg           eight bugs, 640×480, rated 0.5 to 5 (some half ratings)
/// foods/<Name>.jpg|.png     eighteen dishes, 800×600, found by name through imagesDir
/// icons/star-empty.png      rating icons, 64×64 with alpha (the half icon is synthesised)
/// icons/star-full.png
/// logo.png                  1024×1024, the app icon source
/// .thumbkit-demo            the SHA-256 of every file above (see `DemoFolder`)
/// ```
/// The six food categories are Chicken, Beef, Pork, Seafood, Pasta and Salad, three dishes each.
package enum DemoCatalog {
    /// One demo bug.
    struct BugEntry {
        let title: String
        let rating: Double
        let look: DemoPictures.BugLook
    }

    static let bugs: [BugEntry] = [
        BugEntry(title: "Potato Bug", rating: 3.5, look: .init(body: 0x9C6B3C, stripes: true)),
        BugEntry(title: "Ladybird", rating: 4.5, look: .init(body: 0xD7261E, spots: 0x1A1A1A, elongation: 1.1)),
        BugEntry(title: "Stink Bug", rating: 1.5, look: .init(body: 0x6E8B3D, elongation: 1.2)),
        BugEntry(
            title: "Wolf Spider", rating: 0.5, look: .init(body: 0x5A4632, legs: 8, elongation: 1.15, stripes: true)),
        BugEntry(title: "Firefly", rating: 5, look: .init(body: 0x3B3024, elongation: 1.8, glow: true)),
        BugEntry(title: "Dung Beetle", rating: 3, look: .init(body: 0x22262E, elongation: 1.3)),
        BugEntry(title: "Jewel Beetle", rating: 4, look: .init(body: 0x1F8A70, spots: 0xE0B020, elongation: 1.6)),
        BugEntry(title: "Giant Weta", rating: 2.5, look: .init(body: 0x7A4A2A, elongation: 1.9, stripes: true)),
    ]

    /// The six categories, in order, and their dishes.
    static let categories: [(name: String, style: DemoPictures.DishStyle, dishes: [String])] = [
        ("Chicken", .chicken, ["Chicken Marsala", "Lemon Chicken", "Chicken Tikka"]),
        ("Beef", .beef, ["Beef Stroganoff", "Steak Frites", "Beef Stew"]),
        ("Pork", .pork, ["Pork Chops", "Pulled Pork", "Sweet and Sour Pork"]),
        ("Seafood", .seafood, ["Garlic Shrimp", "Grilled Salmon", "Fish Tacos"]),
        ("Pasta", .pasta, ["Spaghetti Bolognese", "Penne Arrabbiata", "Fettuccine Alfredo"]),
        ("Salad", .salad, ["Caesar Salad", "Greek Salad", "Caprese Salad"]),
    ]

    /// Writes the demo's pictures and `catalog.json` into `folder`, which must be new, empty,
    /// or one the demo made (`DemoFolder`: only files the demo wrote are replaced, and files
    /// already there with the same bytes are left alone). Returns the import file's path.
    ///
    /// - Throws: `CatalogError.invalidRecord` for a folder or file that is not the demo's (before
    ///   anything is written), `.io` when a file cannot be written.
    @discardableResult
    package static func write(into folder: String) throws(CatalogError) -> String {
        let planned = plan()
        let target = DemoFolder(folder: folder)
        // A folder that is plainly not the demo's is refused before anything is drawn.
        try target.precheck(planned.map(\.relative))
        var files: [(String, [UInt8])] = []
        for (relative, make) in planned { files.append((relative, try make())) }
        try target.claim(files)
        for (relative, bytes) in files { try target.write(relative, bytes) }
        return target.path("catalog.json")
    }

    /// Every file of the demo: its relative path, and how to draw and encode it in memory.
    static func plan() -> [(relative: String, make: () throws(CatalogError) -> [UInt8])] {
        var files: [(relative: String, make: () throws(CatalogError) -> [UInt8])] = []
        func save(_ image: @escaping @autoclosure () -> PixelBuffer, _ relative: String, _ format: ImageFormat) {
            files.append(
                (
                    relative,
                    { () throws(CatalogError) -> [UInt8] in
                        do throws(EncodeError) {
                            return try ImageEncoders.encode(
                                image(), options: EncodeOptions(format: format, quality: 90))
                        } catch {
                            throw CatalogError.io(path: relative, reason: error.reason)
                        }
                    }
                ))
        }
        var bugEntries: [String] = []
        for (index, bug) in bugs.enumerated() {
            let file = "bugs/\(OutputNaming.slug(bug.title)).jpg"
            save(DemoPictures.bug(bug.look, seed: UInt64(index + 1)), file, .jpeg)
            bugEntries.append(
                "    {\"title\": \"\(bug.title)\", \"rating\": \(Rating(exactly: bug.rating)!), \"image\": \"\(file)\"}"
            )
        }
        var foodEntries: [String] = []
        var seed: UInt64 = 100
        for category in categories {
            for dish in category.dishes {
                seed += 1
                // Most dishes are JPEG; one per category is PNG, both found by name. `save` draws
                // later, so it gets this dish's seed as a constant: the variable would be read
                // when drawing, after the loop, and give every dish of a category one picture.
                let format: ImageFormat = dish == category.dishes.last ? .png : .jpeg
                let dishSeed = seed
                save(DemoPictures.dish(category.style, seed: dishSeed), "foods/\(dish).\(format.fileExtension)", format)
                foodEntries.append("    {\"category\": \"\(category.name)\", \"name\": \"\(dish)\"}")
            }
        }
        save(DemoPictures.star(fill: Paint(0xE4E4E0), outline: Paint(0x9A9A94)), "icons/star-empty.png", .png)
        save(DemoPictures.star(fill: Paint(0xFFC21A), outline: Paint(0xD98A00)), "icons/star-full.png", .png)
        save(DemoPictures.logo(), "logo.png", .png)

        let json = """
            {
              "categories": [\(categories.map { "\"\($0.name)\"" }.joined(separator: ", "))],
              "imagesDir": "foods",
              "ratingIcons": {"empty": "icons/star-empty.png", "full": "icons/star-full.png"},
              "logo": "logo.png",
              "bugs": [
            \(bugEntries.joined(separator: ",\n"))
              ],
              "foods": [
            \(foodEntries.joined(separator: ",\n"))
              ]
            }

            """
        files.append(("catalog.json", { () throws(CatalogError) -> [UInt8] in Array(json.utf8) }))
        return files
    }
}
