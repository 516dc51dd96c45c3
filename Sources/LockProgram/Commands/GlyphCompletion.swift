import CommandKit
import Raster
import Scene
import Typeface

/// The glyphs the lock's first screen did not need, rendered once that screen is up
/// (FreeType's hinting and rendering of the printable ASCII and the language's other
/// characters was a sixth of the start's instructions) and given to each screen's
/// renderer: the one on show, and every screen made after.
package final class GlyphCompletion {
  private var plan: GlyphPlan?
  /// The full atlas, once rendered.
  package private(set) var full: GlyphAtlas?

  package init(_ plan: GlyphPlan) {
    self.plan = plan
  }

  /// Renders the rest the first time (then lets the fonts go) and gives `renderer` the
  /// full atlas. A glyph FreeType fails on now leaves the first screen's atlas, said
  /// once: later prompts then miss some characters, the lock works on.
  package func complete(_ renderer: LockScreenRenderer) {
    if let plan {
      self.plan = nil
      do throws(TypefaceError) {
        full = try plan.atlas(holding: nil)
      } catch {
        Console.error(error.message + "; the prompts after the first may miss some characters")
      }
    }
    if let full { renderer.completeGlyphs(full) }
  }
}
