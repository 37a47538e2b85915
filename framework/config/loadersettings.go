package config

// LoaderSetting is a setting that Load reads itself, while it gathers the
// settings, to decide what else to read: profiles, locations, imports. A
// service never binds one; listings such as --help show them beside the
// settings that are bound.
type LoaderSetting struct {
	Key     string // a key; one that ends in "." is a family: app.profiles.group.<name>
	Default string // "" when none
	Help    string // what it does
}

// LoaderSettings lists the settings Load reads itself, from the same
// constants it reads them by.
func LoaderSettings() []LoaderSetting {
	return []LoaderSetting{
		{keyActive, "", "the active profiles, comma-separated; only the command line, the environment and documents that are not profile-specific may set it"},
		{keyInclude, "", "profiles active before the active ones, whichever those are"},
		{keyDefault, "default", "the profiles that stand in when none is active"},
		{keyGroup, "", "app.profiles.group.<name>: the profiles that the profile <name> expands into"},
		{keyLocation, "", "replaces the external search locations (./, ./config/, ./config/*/): directories ending in /, files (a hint for another extension or encoding: app.conf[.properties][encoding=ISO-8859-1]) and patterns (config/*/), comma-separated; optional: for one that may be missing"},
		{keyAddLoc, "", "adds locations to the external search, searched after it"},
		{keyImport, "", "more settings to read: files, directories, configtree: (one file per setting), optional: for one that may be missing"},
		{keyConfigName, "application", "the name of the settings files a location directory holds, comma-separated for several (later names win); only the command line and the environment set it"},
		{keyOnNotFound, "fail", "ignore: a location or import that does not exist is skipped, as if optional:; only the command line and the environment set it"},
		{keyValidate, "true", "false: profile names may hold any character"},
		{keyOnProfile, "", "in a document of a settings file: the profile expression (dev & !cloud) under which the document applies"},
		{keyApplicationJSON, "", "a JSON object of settings, as APP_APPLICATION_JSON ({\"app\":{\"greeting\":\"Hi\"}})"},
	}
}
