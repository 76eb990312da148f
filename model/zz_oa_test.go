package model
import ("testing";"fmt")
func TestOA(t *testing.T){
 p,_ := PolicyNamed("openai-agents")
 tools := []Tool{{Name:"echo",NameOK:true},{NameProblem:"missing name"},{Name:"twice",NameOK:true},{Name:"twice",NameOK:true},{Name:"last_ok",NameOK:true}}
 reg := p.Apply([]Catalogue{{Server:"h",Tools:tools}})
 r,_ := reg.Server("h")
 fmt.Printf("%+v\n", r)
}
