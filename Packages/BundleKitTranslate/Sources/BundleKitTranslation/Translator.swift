/// Translates text not known at build time: from the app's own memory first, then from a
/// remote LibreTranslate server, and, when both fail, gives back the text itself. Never
/// returns an empty string for a non-empty text.
public struct Translator: Sendable {
  /// Where a translation came from.
  public enum Origin: Sendable, Hashable {
    /// The memory (exact or normalised match).
    case memory(TranslationMatch)
    /// The remote provider.
    case remote
    /// Nobody had it: the text is returned as it was. `reason` says why.
    case untranslated(reason: String)
  }

  /// A translation and where it came from.
  public struct Outcome: Sendable, Hashable {
    /// The translated text (or the original).
    public var text: String
    /// Where it came from.
    public var origin: Origin
  }

  /// The memory asked first.
  public var memory: TranslationMemory?
  /// The provider asked when the memory has nothing.
  public var remote: LibreTranslateClient?

  /// A translator over a memory and an optional remote provider.
  public init(memory: TranslationMemory?, remote: LibreTranslateClient? = nil) {
    self.memory = memory
    self.remote = remote
  }

  /// Translates `text` into `target`: the memory (the same rule as
  /// ``TranslationMemory/translate(_:to:from:)``), then the remote provider when there is
  /// one, then `text` itself. Without a remote provider nothing goes over the network.
  ///
  /// - Parameters:
  ///   - text: The text, in `source` or any language the memory holds.
  ///   - target: The language wanted (BCP 47 or Apple's `pt_BR`).
  ///   - source: The text's language, when known.
  /// - Returns: The translation and where it came from; never an error.
  public func translate(_ text: String, to target: String, from source: String? = nil) async
    -> Outcome
  {
    let local = await fromMemory(text, to: target, from: source)
    if case .memory = local.origin { return local }
    guard let remote else { return local }
    do {
      let translated = try await remote.translate(text, from: source ?? "auto", to: target)
      guard !translated.isEmpty else {
        return Outcome(text: text, origin: .untranslated(reason: "the provider gave nothing"))
      }
      return Outcome(text: translated, origin: .remote)
    } catch {
      return Outcome(text: text, origin: .untranslated(reason: "\(error)"))
    }
  }

  private func fromMemory(_ text: String, to target: String, from source: String?) async
    -> Outcome
  {
    guard let memory else { return Outcome(text: text, origin: .untranslated(reason: "no memory")) }
    do {
      if let match = try await memory.bestTranslation(of: text, to: target, from: source) {
        return Outcome(text: match.translation, origin: .memory(match))
      }
      return Outcome(text: text, origin: .untranslated(reason: "not in the memory"))
    } catch {
      return Outcome(text: text, origin: .untranslated(reason: "\(error)"))
    }
  }
}
