// SPDX-License-Identifier: Apache-2.0
import Foundation
import ThumbKit

/// What planning reads of the catalog: one snapshot's records, settings and output rows.
struct QueueSurvey: Sendable {
    let bugs: [Bug]
    let foods: [Food]
    let assets: CatalogAssets
    let rowsByRecord: [RecordRef: [OutputRecord]]
    let catalogID: String
    private let bugsByID: [Int: Bug]
    private let foodsByID: [Int: Food]

    init(_ tx: CatalogTransaction, catalogID: String) throws {
        bugs = try tx.bugs()
        foods = try tx.foods()
        assets = try tx.assets()
        rowsByRecord = Dictionary(grouping: try tx.outputs(), by: \.record)
        self.catalogID = catalogID
        bugsByID = Dictionary(bugs.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        foodsByID = Dictionary(foods.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Whether `record` (a bug or a food) has the same row and the same output rows here as
    /// in `other`.
    func same(_ record: RecordRef, as other: QueueSurvey) -> Bool {
        // In the same order in both (`outputs()` sorts them); any difference checks again.
        guard rowsByRecord[record] ?? [] == other.rowsByRecord[record] ?? [] else { return false }
        let id = record.id
        switch record.kind {
        case .bug: return bugsByID[id] != nil && bugsByID[id] == other.bugsByID[id]
        case .food: return foodsByID[id] != nil && foodsByID[id] == other.foodsByID[id]
        default: return false
        }
    }
}

/// Planning's verdict on one record: current (and how many up-to-date outputs it counts), or
/// stale.
struct QueueVerdict: Sendable, Hashable {
    var current: Bool
    var upToDate: Int
}

/// The checks `planQueue` makes on one survey: the folder's ownership and the sources inside
/// it, the planner (the rating icons and the logo, read and hashed), and whether each record's
/// outputs are in place (a `stat` each). All file work; no database access.
struct QueuePlanning: Sendable {
    /// The plan so far: `folderOwned` and `refusal` (nothing queued or counted yet).
    let plan: CatalogBuilder.QueuePlan
    let survey: QueueSurvey
    private let planner: BuildPlanner?
    private let logo: Result<ImageRef, CatalogError>?
    private let folder: OutputFolder

    init(survey: QueueSurvey, builder: CatalogBuilder, folder: OutputFolder) {
        var plan = CatalogBuilder.QueuePlan()
        let ownership = folder.ownership(catalogID: survey.catalogID)
        plan.folderOwned = ownership == .own
        // The checks a full build makes first, once, rather than a failure per record.
        let sources = CatalogBuilder.sourcePaths(bugs: survey.bugs, foods: survey.foods, assets: survey.assets)
        plan.refusal = CatalogBuilder.sourceInsideOutput(sources, root: builder.outputDirectory)
        if plan.refusal == nil, case .other(let id) = ownership {
            plan.refusal = CatalogBuilder.foreignFolderLine(folder.root, id: id)
        }
        self.plan = plan
        self.survey = survey
        self.folder = folder
        guard plan.refusal == nil else {
            (planner, logo) = (nil, nil)
            return
        }
        let assets = survey.assets
        do {
            // No icons set is nil, not a failure (`try?` would fold the two together, and a
            // catalog without rating icons would have its app entry queued on every build).
            planner = BuildPlanner(
                recipes: builder.recipes, icons: try RatingIconSources.load(assets), iconsUnavailable: false,
                halfGiven: assets.ratingHalf != nil)
        } catch {
            // The build of the app entry reports why the icons cannot be read.
            planner = BuildPlanner(
                recipes: builder.recipes, icons: nil, iconsUnavailable: true, halfGiven: assets.ratingHalf != nil)
        }
        logo = assets.logo.map { path in
            do throws(CatalogError) {
                return .success(try ImageRef.load(path: path))
            } catch {
                return .failure(error)
            }
        }
    }

    private init(_ planning: QueuePlanning, survey: QueueSurvey) {
        (plan, planner, logo, folder) = (planning.plan, planning.planner, planning.logo, planning.folder)
        self.survey = survey
    }

    /// This planning's icons, logo and folder checks over `survey`, a later read of a catalog
    /// whose settings and id did not change.
    func updated(to survey: QueueSurvey) -> QueuePlanning { QueuePlanning(self, survey: survey) }

    /// Each record's verdict, the `app` entry first, then bugs and foods in the survey's order.
    /// A bug or food whose row and output rows are as in `earlier`'s survey keeps `earlier`'s
    /// verdict, with no file checked; the `app` entry is always checked.
    func verdicts(reusing earlier: (survey: QueueSurvey, verdicts: [RecordRef: QueueVerdict])?) -> [(
        RecordRef, QueueVerdict
    )] {
        guard let planner else { return [] }
        func verdict(_ unit: @autoclosure () -> BuildUnit, _ record: RecordRef) -> (RecordRef, QueueVerdict) {
            if let earlier, let kept = earlier.verdicts[record],
                survey.same(record, as: earlier.survey)
            {
                return (record, kept)
            }
            let unit = unit()
            let check = unit.isCurrent(rows: survey.rowsByRecord[record] ?? [], folder: folder)
            // A folder not yet this catalog's: the app entry's build creates and claims it (or
            // reports whose it is), as a single build always does.
            let current = check.current && !(record == .app && !plan.folderOwned)
            let upToDate = current && unit.countsUpToDate ? check.outputs : 0
            return (record, QueueVerdict(current: current, upToDate: upToDate))
        }
        return [verdict(planner.appUnit(full: true, logo: logo), .app)]
            + survey.bugs.map { bug in verdict(planner.unit(for: bug), .bug(bug.id)) }
            + survey.foods.map { food in verdict(planner.unit(for: food), .food(food.id)) }
    }
}
