// SPDX-License-Identifier: Apache-2.0
import ThumbKit

/// Turns records, recipes and the catalog's assets into `BuildUnit`s: what each record should
/// have, keyed and named, before anything is read or made.
///
/// ### Output layout (below the output folder)
/// - `bugs/<id>-<slug>/<recipe>.<tag>[@Nx].jpg`, `foods/<id>-<slug>/…`: recipe outputs
///   (`OutputNaming.builtPath`).
/// - `ratings/rating-<value>-stars.<tag>[@Nx].png` (`-stars` keeps the value apart from the tag): one strip per rating and scale, shared. They are
///   rows of the `app` record (kind `rating`); each bug also has rows of kind `rating` pointing
///   at the strips of its own rating, so the export and the site find them with the bug.
/// - `app/AppIcon.appiconset/icon-<pt>pt.<tag>[@Nx].png` and its `Contents.json`: the app
///   icons, rows of the `app` record (kind `icon`); `app/0-app/…` for any `app` recipes.
///
/// The tag (`OutputNaming.tag`) is derived from the source's hash and the recipe identifier, so
/// a remade output gets a new name and a row always describes the file under its path.
struct BuildPlanner: Sendable {
    let recipes: RecipeBook
    /// The rating icons: nil when the catalog has none.
    let icons: RatingIconSources?
    /// Whether icons are set but could not be read (their strips are neither made nor removed).
    let iconsUnavailable: Bool
    /// Whether a half icon is set (decides the strip identifier when the icons are unavailable).
    let halfGiven: Bool

    var style: RatingStripStyle { recipes.ratingStrip }

    // MARK: Records

    /// A bug's recipe outputs and its rating strip.
    func unit(for bug: Bug) -> BuildUnit {
        var groups = [imageGroup(record: bug.ref, title: bug.title, image: bug.image)].compactMap { $0 }
        if let group = ratingGroup(for: bug) { groups.append(group) }
        return BuildUnit(
            record: bug.ref, image: bug.image, title: bug.title, groups: groups, removesUnwanted: true,
            writesIconContents: false)
    }

    /// A food's recipe outputs.
    func unit(for food: Food) -> BuildUnit {
        BuildUnit(
            record: food.ref, image: food.image, title: food.name,
            groups: [imageGroup(record: food.ref, title: food.name, image: food.image)].compactMap { $0 },
            removesUnwanted: true, writesIconContents: false)
    }

    /// The recipe outputs of `record` from `image` (nil without an image: its outputs go).
    private func imageGroup(record: RecordRef, title: String, image: ImageRef?) -> OutputGroup? {
        guard let image else { return nil }
        let wanted = recipes.recipes(for: record.kind)
        guard !wanted.isEmpty else { return nil }
        return OutputGroup(
            source: .image(path: image.path, sha256: image.sha256),
            keys: Set(
                wanted.flatMap { recipe in
                    recipe.scales.map { OutputKey(record: record, recipe: recipe.identifier, scale: $0) }
                }),
            plan: { sha in Self.recipeOutputs(wanted, record: record, title: title, sha256: sha) })
    }

    static func recipeOutputs(_ recipes: [Recipe], record: RecordRef, title: String, sha256: String) -> [PlannedOutput]
    {
        recipes.flatMap { recipe in
            recipe.scales.map { scale in
                let box = recipe.pixelSize(scale: scale)
                let exact = recipe.mode == .fill || recipe.mode == .pad || recipe.mode == .stretch
                return PlannedOutput(
                    key: OutputKey(record: record, recipe: recipe.identifier, scale: scale), kind: recipe.outputKind,
                    path: OutputNaming.builtPath(
                        for: record, title: title, recipe: recipe, scale: scale, sourceSHA256: sha256),
                    width: exact ? box.width : nil, height: exact ? box.height : nil, format: recipe.format,
                    sourceSHA256: sha256,
                    maker: .resize(recipe.resizeOptions(scale: scale), recipe.encodeOptions, opaque: false))
            }
        }
    }

    /// The bug's rows pointing at the shared strips of its rating (nil without rating icons).
    private func ratingGroup(for bug: Bug) -> OutputGroup? {
        guard icons != nil || iconsUnavailable else { return nil }
        let identifier = style.identifier(for: bug.rating, halfGiven: halfGiven)
        let keys = Set(style.scales.map { OutputKey(record: bug.ref, recipe: identifier, scale: $0) })
        guard let icons else { return OutputGroup(source: .unavailable, keys: keys, plan: { _ in [] }) }
        let shared = stripOutputs(icons, ratings: [bug.rating], record: bug.ref, maker: { _ in .attached })
        return OutputGroup(source: .none, keys: keys, plan: { _ in shared })
    }

    // MARK: The app's shared files

    /// The rating strips and, when `full`, the app icons and `app` recipes from `logo`.
    ///
    /// - Parameters:
    ///   - full: false for a build of some records only: just the strips their rows point at
    ///     are made, and nothing of the app is removed.
    ///   - logo: the logo, hashed; nil when none is set; `.failure` when it cannot be read (its
    ///     outputs are then kept as they are).
    func appUnit(full: Bool, logo: Result<ImageRef, CatalogError>?) -> BuildUnit {
        var groups: [OutputGroup] = []
        if icons != nil || iconsUnavailable {
            let keys = Set(
                Rating.all.flatMap { rating in
                    style.scales.map {
                        OutputKey(record: .app, recipe: style.identifier(for: rating, halfGiven: halfGiven), scale: $0)
                    }
                })
            if let icons {
                let strips = stripOutputs(icons, ratings: Rating.all, record: .app, maker: { .strip($0) })
                groups.append(OutputGroup(source: .ratingIcons(icons), keys: keys, plan: { _ in strips }))
            } else {
                groups.append(OutputGroup(source: .unavailable, keys: keys, plan: { _ in [] }))
            }
        }
        if full, let logo {
            let appRecipes = recipes.recipes(for: .app)
            let keys = Set(
                AppIcon.files.map { OutputKey(record: .app, recipe: $0.identifier, scale: $0.scale) }
                    + appRecipes.flatMap { recipe in
                        recipe.scales.map { OutputKey(record: .app, recipe: recipe.identifier, scale: $0) }
                    })
            switch logo {
            case .success(let image):
                groups.append(
                    OutputGroup(
                        source: .image(path: image.path, sha256: image.sha256), keys: keys,
                        plan: { sha in
                            Self.iconOutputs(sha256: sha)
                                + Self.recipeOutputs(appRecipes, record: .app, title: "app", sha256: sha)
                        }))
            case .failure:
                groups.append(OutputGroup(source: .unavailable, keys: keys, plan: { _ in [] }))
            }
        }
        return BuildUnit(
            record: .app, image: nil, groups: groups, removesUnwanted: full,
            writesIconContents: full && (try? logo?.get()) != nil, countsUpToDate: full)
    }

    /// One output per rating in `ratings` and scale: the shared strip files, as rows of `record`.
    private func stripOutputs(
        _ icons: RatingIconSources, ratings: [Rating], record: RecordRef,
        maker: (Rating) -> PlannedOutput.Maker
    ) -> [PlannedOutput] {
        let sha = icons.sha256
        return ratings.flatMap { rating in
            let identifier = style.identifier(for: rating, halfGiven: icons.halfGiven)
            let tag = OutputNaming.tag(sourceSHA256: sha, identifier: identifier)
            return style.scales.map { scale in
                let size = style.stripSize(scale: scale)
                let name = OutputNaming.taggedFileName(
                    base: "rating-\(rating)-stars", tag: tag, scale: scale, format: .png)
                return PlannedOutput(
                    key: OutputKey(record: record, recipe: identifier, scale: scale), kind: .rating,
                    path: "ratings/\(name)", width: size.width, height: size.height, format: .png,
                    sourceSHA256: sha, maker: maker(rating))
            }
        }
    }

    /// The icon set's files from a logo with hash `sha256`.
    static func iconOutputs(sha256: String) -> [PlannedOutput] {
        AppIcon.files.map { file in
            let tag = OutputNaming.tag(sourceSHA256: sha256, identifier: file.identifier)
            let name = OutputNaming.taggedFileName(base: file.baseName, tag: tag, scale: file.scale, format: .png)
            return PlannedOutput(
                key: OutputKey(record: .app, recipe: file.identifier, scale: file.scale), kind: .icon,
                path: "\(AppIcon.folder)/\(name)", width: file.pixels, height: file.pixels, format: .png,
                sourceSHA256: sha256,
                maker: .resize(AppIcon.resizeOptions(for: file), AppIcon.encodeOptions, opaque: true))
        }
    }
}
