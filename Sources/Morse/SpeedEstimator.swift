import Foundation

/// Learns the length of a dit from recent keying: the unit that best explains the recent
/// marks as 1 or 3 units and the gaps as 1, 3 or 7, recent elements counting most.
///
/// Timing jitter is roughly the same in milliseconds for every element, so a dah (3 units)
/// pins the unit down three times better than a dit; the fit weighs each element
/// accordingly. Elements that fit no multiple (stretched Farnsworth gaps, a mis-keyed mark)
/// count a fixed amount, so they neither dominate nor vanish.
struct SpeedEstimator: Sendable {
  private struct Element: Sendable {
    var logValue: Double
    var isMark: Bool
  }

  /// The last elements, oldest first.
  private var elements: [Element] = []
  private let capacity = 40
  /// How much each older element counts less than the next.
  private let decay = 0.9
  /// Assumed timing jitter as a share of a unit.
  private let jitter = 0.3

  private static let markMultiples: [Double] = [1, 3]
  private static let gapMultiples: [Double] = [1, 3, 7]

  var markCount: Int { elements.lazy.filter(\.isMark).count }
  var count: Int { elements.count }

  mutating func add(_ duration: Double, isMark: Bool) {
    guard duration > 0, duration.isFinite else { return }
    elements.append(Element(logValue: log(duration), isMark: isMark))
    if elements.count > capacity { elements.removeFirst(elements.count - capacity) }
  }

  /// The best unit for the recent elements, starting from `current` when there is one (it
  /// wins ties, so the estimate does not wander on ambiguous keying such as all dits).
  func estimate(near current: Double?) -> Double? {
    guard !elements.isEmpty else { return current }
    var candidates: [Double] = []
    for element in elements {
      candidates.append(element.logValue)
      if element.isMark { candidates.append(element.logValue - log(3.0)) }
    }
    if let current { candidates.append(log(current)) }
    var best: (cost: Double, logUnit: Double)?
    for candidate in candidates {
      var cost = self.cost(candidate)
      if let current { cost += 0.5 * abs(candidate - log(current)) }
      if best == nil || cost < (best?.cost ?? .infinity) { best = (cost, candidate) }
    }
    guard var logUnit = best?.logUnit else { return current }
    // Refine: with each element assigned to its multiple, the weighted mean in the log domain.
    for _ in 0..<2 { logUnit = refined(logUnit) }
    return exp(logUnit)
  }

  private func weight(_ index: Int) -> Double {
    pow(decay, Double(elements.count - 1 - index))
  }

  private func misfit(_ element: Element, _ logUnit: Double) -> (cost: Double, multiple: Double) {
    let multiples = element.isMark ? Self.markMultiples : Self.gapMultiples
    var best = (cost: Double.infinity, multiple: 1.0)
    for multiple in multiples {
      let deviation = element.logValue - logUnit - log(multiple)
      let cost = deviation * deviation * multiple * multiple / (2 * jitter * jitter)
      if cost < best.cost { best = (cost, multiple) }
    }
    return best
  }

  private func cap(_ element: Element) -> Double { element.isMark ? 4 : 2 }

  private func cost(_ logUnit: Double) -> Double {
    var total = 0.0
    for (index, element) in elements.enumerated() {
      total += weight(index) * min(misfit(element, logUnit).cost, cap(element))
    }
    return total
  }

  private func refined(_ logUnit: Double) -> Double {
    var sum = 0.0
    var weights = 0.0
    for (index, element) in elements.enumerated() {
      let (cost, multiple) = misfit(element, logUnit)
      guard cost < cap(element) else { continue }
      let w = weight(index) * multiple * multiple
      sum += w * (element.logValue - log(multiple))
      weights += w
    }
    return weights > 0 ? sum / weights : logUnit
  }
}
