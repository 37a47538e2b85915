package boot

import "github.com/springport/greeter/framework/session/memstore"

// openSessions opens the in-memory session store, unless a starter gave
// the application its own (UseSessionStore) as app.session.store-type
// asked.
func (a *App) openSessions() {
	if a.sessions != nil {
		return
	}
	s := a.settings.sessions
	a.UseSessionStore(memstore.New(memstore.Options{IdleTimeout: s.Timeout, MaxSessions: s.MaxSessions, Logger: a.Logger(sessionsLogger)}))
}
