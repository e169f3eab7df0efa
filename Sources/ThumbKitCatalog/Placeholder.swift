// Catalog module: records, recipes, rating strips, app icons, store, site, ingest, bench history.
import ThumbKit

