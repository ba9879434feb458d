import Foundation

/// The `YYYY-MM-DDTHH:MM:SSZ` dates of XML property lists, in UTC, without Foundation's
/// formatters: civil-calendar arithmetic on whole seconds.
package enum ISO8601 {
  /// Seconds from 1970-01-01 to 2001-01-01, the property-list epoch.
  package static let referenceOffset: Int64 = 978_307_200

  /// Formats a date, dropping fractional seconds as CoreFoundation does.
  package static func format(_ date: Date, into output: inout [UInt8]) {
    let seconds = date.timeIntervalSinceReferenceDate
    let whole: Int64
    if seconds.isFinite, abs(seconds) < 1e15 {
      whole = Int64(seconds.rounded(.down)) + referenceOffset
    } else {
      whole = referenceOffset
    }
    var days = whole / 86_400
    var secondsOfDay = whole % 86_400
    if secondsOfDay < 0 {
      secondsOfDay += 86_400
      days -= 1
    }
    let (year, month, day) = civil(fromDays: days)
    if year < 0 { output.append(UInt8(ascii: "-")) }
    appendDigits(abs(year), width: 4, into: &output)
    output.append(UInt8(ascii: "-"))
    appendDigits(month, width: 2, into: &output)
    output.append(UInt8(ascii: "-"))
    appendDigits(day, width: 2, into: &output)
    output.append(UInt8(ascii: "T"))
    appendDigits(secondsOfDay / 3600, width: 2, into: &output)
    output.append(UInt8(ascii: ":"))
    appendDigits(secondsOfDay / 60 % 60, width: 2, into: &output)
    output.append(UInt8(ascii: ":"))
    appendDigits(secondsOfDay % 60, width: 2, into: &output)
    output.append(UInt8(ascii: "Z"))
  }

  /// The formatted date as a string.
  package static func string(from date: Date) -> String {
    var output: [UInt8] = []
    format(date, into: &output)
    return String(decoding: output, as: UTF8.self)
  }

  /// ``parse(_:)`` specialised for other modules' byte arrays (the XML reader's text).
  package static func parse(_ text: [UInt8]) -> Date? { parse(text[...]) }

  /// Parses `YYYY[-MM[-DD[THH[:MM[:SS]]]]]Z` (the trailing `Z` optional), as CoreFoundation
  /// and plistlib accept it.
  package static func parse<Bytes: Collection<UInt8>>(_ text: Bytes) -> Date? {
    var bytes = Array(text)
    while let last = bytes.last, isSpace(last) { bytes.removeLast() }
    var index = bytes.firstIndex { !isSpace($0) } ?? 0
    func number(_ width: Int) -> Int64? {
      guard index + width <= bytes.count else { return nil }
      var value: Int64 = 0
      for byte in bytes[index..<index + width] {
        guard byte >= 0x30, byte <= 0x39 else { return nil }
        value = value * 10 + Int64(byte - 0x30)
      }
      index += width
      return value
    }
    func separator(_ character: Character) -> Bool {
      guard index < bytes.count, bytes[index] == character.asciiValue else { return false }
      index += 1
      return true
    }
    var negative = false
    if index < bytes.count, bytes[index] == UInt8(ascii: "-") {
      negative = true
      index += 1
    }
    guard var year = number(4) else { return nil }
    if negative { year = -year }
    var month: Int64 = 1
    var day: Int64 = 1
    var hour: Int64 = 0
    var minute: Int64 = 0
    var second: Int64 = 0
    if separator("-") {
      guard let m = number(2) else { return nil }
      month = m
      if separator("-") {
        guard let d = number(2) else { return nil }
        day = d
        if separator("T") {
          guard let h = number(2) else { return nil }
          hour = h
          if separator(":") {
            guard let mi = number(2) else { return nil }
            minute = mi
            if separator(":") {
              guard let s = number(2) else { return nil }
              second = s
            }
          }
        }
      }
    }
    _ = separator("Z")
    guard index == bytes.count else { return nil }
    guard (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
    else { return nil }
    let days = daysFromCivil(year: year, month: month, day: day)
    let unix = days * 86_400 + hour * 3600 + minute * 60 + second
    return Date(timeIntervalSinceReferenceDate: TimeInterval(unix - referenceOffset))
  }

  private static func appendDigits(_ value: Int64, width: Int, into output: inout [UInt8]) {
    var digits: [UInt8] = []
    var rest = value
    repeat {
      digits.append(UInt8(rest % 10) + 0x30)
      rest /= 10
    } while rest > 0
    if digits.count < width {
      output.append(contentsOf: repeatElement(0x30, count: width - digits.count))
    }
    output.append(contentsOf: digits.reversed())
  }

  // Howard Hinnant's days-from-civil algorithms, proleptic Gregorian calendar.
  private static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  private static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let mp = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }
}
