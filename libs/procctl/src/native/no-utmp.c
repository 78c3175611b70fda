/*
 * libutempter's calls as tmux makes them, doing nothing: loaded into genswarms' own tmux servers only
 * (LD_PRELOAD, docs/runners.md "tmux servers"). Without it, every pane tmux creates or destroys forks the
 * server and execs the setgid utmp helper once, which is most of the CPU of starting and stopping
 * 1,000 agent panes. An agent pane is not a login session: it has no business in utmp/wtmp.
 * Each returns what libutempter returns on success (non-zero); tmux ignores the value.
 */
int utempter_add_record(int master_fd, const char *hostname);
int utempter_remove_record(int master_fd);
int utempter_remove_added_record(void);
void utempter_set_helper(const char *pathname);

int utempter_add_record(int master_fd, const char *hostname) {
  (void)master_fd;
  (void)hostname;
  return 1;
}

int utempter_remove_record(int master_fd) {
  (void)master_fd;
  return 1;
}

int utempter_remove_added_record(void) { return 1; }

void utempter_set_helper(const char *pathname) { (void)pathname; }
