package config

// Load reads and parses the experiment file at path, as the command does
// (ReadFile, then Parse); errors name path. Only tests read a file by
// path alone: the command also takes committed names, manifests and
// resolved configurations (internal/expfile).
func Load(path string) (*Config, error) {
	data, err := ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, data)
}
