import ProjectDescription

let project = Project(
  name: "Weather",
  organizationName: "Example",
  settings: .settings(
    base: [
      "MARKETING_VERSION": "3.2.0",
      "CURRENT_PROJECT_VERSION": "57",  // raised by CI
    ],
    configurations: [
      .debug(name: .debug),
      .release(name: .release),
    ]
  ),
  targets: [
    .target(
      name: "Weather",
      destinations: .iOS,
      product: .app,
      bundleId: "com.example.weather",
      infoPlist: .extendingDefault(with: [
        "CFBundleShortVersionString": "$(MARKETING_VERSION)",
        "CFBundleVersion": "$(CURRENT_PROJECT_VERSION)",
        "UILaunchScreen": [:],
      ]),
      sources: ["Weather/Sources/**"],
      resources: ["Weather/Resources/**"],
      dependencies: [
        .target(name: "WeatherWidget"),
        .target(name: "WeatherKit"),
        .external(name: "Alamofire"),
      ]
    ),
    .target(
      name: "WeatherWidget",
      destinations: .iOS,
      product: .appExtension,
      bundleId: "com.example.weather.widget",
      infoPlist: "WeatherWidget/Info.plist",
      sources: ["WeatherWidget/**"]
    ),
    .target(
      name: "WeatherKit",
      destinations: .iOS,
      product: .framework,
      bundleId: "com.example.weatherkit",
      infoPlist: .extendingDefault(with: [
        "CFBundleShortVersionString": .string("1.1.0"),
        "CFBundleVersion": "4",
      ]),
      sources: ["WeatherKit/**"],
      settings: .settings(base: ["SWIFT_STRICT_CONCURRENCY": "complete"])
    ),
    .target(
      name: "WeatherTests",
      destinations: .iOS,
      product: .unitTests,
      bundleId: "com.example.weather.tests",
      infoPlist: .default,
      sources: ["WeatherTests/**"],
      dependencies: [.target(name: "Weather")]
    ),
  ]
)
