package procguard

import (
	"errors"
	"fmt"
	"os"
	"sync"
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"
)

// A Tree is a server and the processes it starts: on Windows, a job object
// of its own, set to kill every process in it when its last handle closes
// (JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE). mcplens holds the only handle, so
// the tree ends when mcplens ends, however it ends: the part the guard
// plays on unix. A process started in a job stays in it: no breakaway is
// allowed.
type Tree struct {
	p   *os.Process
	mu  sync.Mutex
	job windows.Handle // 0 once closed
}

// childAttr starts a server suspended, so that it runs nothing before it
// is in its job (adopt resumes it), in a console process group of its own
// (a ctrl+c in mcplens's console does not reach it: mcplens ends it) and
// without a console window (its stdio is mcplens's pipes). The command
// line of prev (Command's, for a batch file) is kept.
func childAttr(prev *syscall.SysProcAttr) *syscall.SysProcAttr {
	a := &syscall.SysProcAttr{CreationFlags: windows.CREATE_SUSPENDED | windows.CREATE_NEW_PROCESS_GROUP | windows.CREATE_NO_WINDOW}
	if prev != nil {
		a.CmdLine = prev.CmdLine
	}
	return a
}

// adopt puts the suspended process p in a new job and resumes it.
func adopt(p *os.Process) (*Tree, error) {
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return nil, fmt.Errorf("creating a job object: %w", err)
	}
	var info windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION
	info.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		windows.CloseHandle(job)
		return nil, fmt.Errorf("setting up a job object: %w", err)
	}
	// The pid names p until it is waited for: os.Process holds a handle.
	h, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, uint32(p.Pid))
	if err == nil {
		err = windows.AssignProcessToJobObject(job, h)
		windows.CloseHandle(h)
	}
	if err == nil {
		err = resume(uint32(p.Pid))
	}
	if err != nil {
		windows.CloseHandle(job) // kills p if it got in
		return nil, fmt.Errorf("putting the server in a job object: %w", err)
	}
	return &Tree{p: p, job: job}, nil
}

// resume resumes the threads of process pid (one: its first, created
// suspended).
func resume(pid uint32) error {
	snap, err := windows.CreateToolhelp32Snapshot(windows.TH32CS_SNAPTHREAD, 0)
	if err != nil {
		return err
	}
	defer windows.CloseHandle(snap)
	e := windows.ThreadEntry32{Size: uint32(unsafe.Sizeof(windows.ThreadEntry32{}))}
	resumed := false
	for err = windows.Thread32First(snap, &e); err == nil; err = windows.Thread32Next(snap, &e) {
		if e.OwnerProcessID != pid {
			continue
		}
		th, err := windows.OpenThread(windows.THREAD_SUSPEND_RESUME, false, e.ThreadID)
		if err != nil {
			return err
		}
		_, err = windows.ResumeThread(th)
		windows.CloseHandle(th)
		if err != nil {
			return err
		}
		resumed = true
	}
	if !resumed {
		return errors.New("the server has no thread to resume")
	}
	return nil
}

// Pid is the id of the tree's root.
func (t *Tree) Pid() int { return t.p.Pid }

// Signal ends the whole tree, whatever sig is: Windows has no signal a
// console-less process could be asked to stop by, so the step that is
// SIGTERM on unix terminates the job here (exit code 1).
func (t *Tree) Signal(os.Signal) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.job == 0 {
		return errors.New("the job object is closed")
	}
	return windows.TerminateJobObject(t.job, 1)
}

// Close closes mcplens's handle to the job, which kills whatever is left
// in it.
func (t *Tree) Close() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.job != 0 {
		windows.CloseHandle(t.job)
		t.job = 0
	}
}
