#if false
#elseif
#else
#else
#endif
#endif
#if
let project = Project(name: "A"
