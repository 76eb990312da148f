package ui

import "github.com/mcplens/mcplens/model"

// profileSets are the provider checks v cycles through.
func profileSets() [][]string {
	return [][]string{
		{"openai", "anthropic", "gemini"},
		{"portable"},
		{"openai", "anthropic", "gemini", "bedrock", "portable"},
		{"openai"}, {"anthropic"}, {"gemini"}, {"bedrock"},
	}
}

// setProfiles shows the named provider profiles, reporting whether every
// name is known.
func (m *Model) setProfiles(names []string) bool {
	var ps []model.Profile
	for _, n := range names {
		p, ok := model.ProfileNamed(n)
		if !ok {
			return false
		}
		ps = append(ps, p)
	}
	if len(ps) == 0 {
		return false
	}
	m.profiles = ps
	m.live.profiles = ps
	m.live.dropFindings()
	return true
}

func (m *Model) cycleProfiles() {
	sets := profileSets()
	m.profileSet = (m.profileSet + 1) % len(sets)
	m.setProfiles(sets[m.profileSet])
}
