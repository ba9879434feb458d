/* /* */ let old = Project(name: "Old") */
let project = Project(name: "A")
