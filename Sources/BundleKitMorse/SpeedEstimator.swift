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

  /// A multiple of the unit, with its logarithm and the weight of a misfit (jitter is about
  /// the same in milliseconds, so a longer element's ratio is that much more exact).
  private struct Multiple: Sendable {
    var value: Double
    var logValue: Double
    var weight: Double
    init(_ value: Double, jitter: Double) {
      self.value = value
      logValue = log(value)
      weight = value * value / (2 * jitter * jitter)
    }
  }

  private static let markMultiples = [1.0, 3].map { Multiple($0, jitter: 0.3) }
  private static let gapMultiples = [1.0, 3, 7].map { Multiple($0, jitter: 0.3) }

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
    var weights = [Double](repeating: 1, count: elements.count)
    for index in stride(from: elements.count - 2, through: 0, by: -1) {
      weights[index] = weights[index + 1] * decay
    }
    var candidates: [Double] = []
    for element in elements {
      candidates.append(element.logValue)
      if element.isMark { candidates.append(element.logValue - Self.markMultiples[1].logValue) }
    }
    if let current { candidates.append(log(current)) }
    var best: (cost: Double, logUnit: Double)?
    for candidate in candidates {
      var cost = self.cost(candidate, weights)
      if let current { cost += 0.5 * abs(candidate - log(current)) }
      if best == nil || cost < (best?.cost ?? .infinity) { best = (cost, candidate) }
    }
    guard var logUnit = best?.logUnit else { return current }
    // Refine: with each element assigned to its multiple, the weighted mean in the log domain.
    for _ in 0..<2 { logUnit = refined(logUnit, weights) }
    return exp(logUnit)
  }

  /// The element's nearest multiple of the unit and the cost of the distance to it (the first
  /// of equally near ones).
  private func misfit(_ element: Element, _ logUnit: Double) -> Misfit {
    element.isMark
      ? Self.nearest(element.logValue - logUnit, Self.markMultiples)
      : Self.nearest(element.logValue - logUnit, Self.gapMultiples)
  }

  private struct Misfit {
    var cost: Double
    var multiple: Double
  }

  /// The nearest of `multiples` to a logarithmic distance from the unit. (Called for every
  /// element and candidate unit at every element the decoder is fed: a loop over the buffer
  /// and a plain struct, where tuples, `enumerated()` and arrays read through their generic
  /// accessors made the decoder's tests take 20 CPU-s in a debug build.)
  private static func nearest(_ distance: Double, _ multiples: [Multiple]) -> Misfit {
    multiples.withUnsafeBufferPointer { multiples in
      var best = Misfit(cost: .infinity, multiple: 1)
      for position in 0..<multiples.count {
        let multiple = multiples[position]
        let deviation = distance - multiple.logValue
        let cost = deviation * deviation * multiple.weight
        if cost < best.cost { best = Misfit(cost: cost, multiple: multiple.value) }
      }
      return best
    }
  }

  private func cap(_ element: Element) -> Double { element.isMark ? 4 : 2 }

  private func cost(_ logUnit: Double, _ weights: [Double]) -> Double {
    var total = 0.0
    elements.withUnsafeBufferPointer { elements in
      weights.withUnsafeBufferPointer { weights in
        for index in 0..<elements.count {
          let element = elements[index]
          total += weights[index] * min(misfit(element, logUnit).cost, cap(element))
        }
      }
    }
    return total
  }

  private func refined(_ logUnit: Double, _ weights: [Double]) -> Double {
    var sum = 0.0
    var total = 0.0
    elements.withUnsafeBufferPointer { elements in
      weights.withUnsafeBufferPointer { weights in
        for index in 0..<elements.count {
          let element = elements[index]
          let fit = misfit(element, logUnit)
          guard fit.cost < cap(element) else { continue }
          let w = weights[index] * fit.multiple * fit.multiple
          sum += w * (element.logValue - log(fit.multiple))
          total += w
        }
      }
    }
    return total > 0 ? sum / total : logUnit
  }
}
